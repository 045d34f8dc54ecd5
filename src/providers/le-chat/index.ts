import { buildConversation } from '../../model/build-conversation.js';
import type { DraftMessage } from '../../model/draft.js';
import type { Attachment, Citation, Conversation, JsonObject, ToolCall } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import { baseName } from '../../read/entry.js';
import { notAConversation } from '../not-a-conversation.js';
import { anonymousId } from '../anonymous-id.js';
import type { ConversionContext, Detection, Provider } from '../provider.js';
import { asAbsoluteUrl, asArray, asObject, asString, asText, without } from '../untrusted.js';
import { addressOf } from '../platform-url.js';

function detect(path: string, head: string): Detection | undefined {
  const name = baseName(path).toLowerCase();
  if (!/^chat-[0-9a-z-]+\.json$/.test(name) || !/"chatId"\s*:/.test(head)) return undefined;
  return { role: 'conversations', format: { kind: 'json-file' }, variant: 'chat-json' };
}

interface MappedChunks {
  texts: string[];
  citations: Citation[];
  toolCalls: ToolCall[];
  attachments: Attachment[];
  unknownChunks: unknown[];
}

function messageDraft(
  message: JsonObject,
  key: string,
  parentKey: string | null,
  context: ConversionContext,
): DraftMessage {
  const role =
    asString(message.role) === 'user'
      ? 'user'
      : asString(message.role) === 'system'
        ? 'system'
        : 'assistant';
  const { texts, citations, toolCalls, attachments, unknownChunks } = mapChunks(message, context);
  for (const item of fileAttachments(message)) attachments.push(item);
  const text = texts.length > 0 ? texts.join('') : (asString(message.content) ?? '');
  const rawMetadata = without(message, [
    'id',
    'chatId',
    'content',
    'contentChunks',
    'role',
    'createdAt',
    'files',
  ]);
  if (unknownChunks.length > 0) rawMetadata.unknown_chunks = unknownChunks;
  return {
    key,
    parentKey,
    provider_message_id: asText(message.id) ?? null,
    role,
    content: { type: 'text', text },
    createdAt: toTimestamp(message.createdAt),
    model: null,
    is_thought: false,
    attachments,
    citations,
    tool_calls: toolCalls,
    raw_metadata: rawMetadata,
  };
}

/** A message's `contentChunks` by type; unknown types are kept whole and counted. */
function mapChunks(message: JsonObject, context: ConversionContext): MappedChunks {
  const mapped: MappedChunks = {
    texts: [],
    citations: [],
    toolCalls: [],
    attachments: [],
    unknownChunks: [],
  };
  for (const c of asArray(message.contentChunks) ?? []) {
    const chunk = asObject(c);
    const type = asString(chunk?.type);
    if (!chunk) continue;
    if (type === 'text') mapped.texts.push(asString(chunk.text) ?? '');
    else if (type === 'tool_call')
      mapped.toolCalls.push({
        id: asText(chunk.id) ?? null,
        name: asText(chunk.name) ?? 'tool',
        input: asObject(chunk.arguments) ?? asString(chunk.arguments) ?? null,
        output: asString(chunk.result) ?? null,
      });
    else if (type === 'reference')
      mapped.citations.push({
        title: asText(chunk.title) ?? null,
        url: asAbsoluteUrl(chunk.url),
        snippet: asText(chunk.description) ?? null,
      });
    else if (type === 'image_url')
      mapped.attachments.push({
        type: 'image',
        name: null,
        mime_type: null,
        size_bytes: null,
        ref: asText(chunk.url) ?? null,
        provider_id: null,
      });
    else {
      mapped.unknownChunks.push(chunk);
      context.report({
        level: 'info',
        code: 'unknown-chunk-type',
        message: `content chunk type "${type ?? 'without type'}" is not mapped; it is kept in raw_metadata.unknown_chunks`,
        record: context.record,
      });
    }
  }
  return mapped;
}

function fileAttachments(message: JsonObject): Attachment[] {
  const attachments: Attachment[] = [];
  for (const f of asArray(message.files) ?? []) {
    const file = asObject(f);
    if (file)
      attachments.push({
        type: asString(file.type) === 'image' ? 'image' : 'file',
        name: asText(file.name) ?? null,
        mime_type: null,
        size_bytes: null,
        ref: null,
        provider_id: null,
      });
  }
  return attachments;
}

/** One `chat-<uuid>.json`: an array of messages, which is one conversation. */
function toConversation(
  raw: unknown,
  variant: string,
  context: ConversionContext,
): Conversation | undefined {
  const messages = asArray(raw);
  if (!messages) {
    notAConversation(context, 'a Le Chat file holds an array of messages; this one does not');
    return;
  }
  let chatId: string | undefined;
  let previous: string | null = null;
  const drafts: DraftMessage[] = [];
  messages.forEach((item, index) => {
    const message = asObject(item);
    if (!message) return;
    chatId ??= asText(message.chatId);
    const key = asText(message.id) ?? `index-${index}`;
    drafts.push(messageDraft(message, key, previous, context));
    previous = key;
  });
  const fileId = /chat-([0-9a-z-]+)\.json$/i.exec(context.file)?.[1];
  return buildConversation(
    {
      provider: {
        name: 'le-chat',
        conversation_id: chatId ?? fileId ?? anonymousId('le-chat', raw, context),
        account_id: null,
        export_format_version: `le-chat/${variant}`,
      },
      title: null,
      createdAt: undefined,
      updatedAt: undefined,
      messages: drafts,
      shownLeafKey: undefined,
      model: null,
      system_instruction: null,
      is_archived: false,
      raw_metadata: {},
      assistantName: 'Le Chat',
    },
    context,
  );
}

/** Mistral Le Chat (one `chat-<uuid>.json` per conversation). */
export const leChat: Provider = {
  conversationUrl: (id) => addressOf('https://chat.mistral.ai/chat/', id),
  name: 'le-chat',
  source: 'le-chat',
  label: 'Le Chat',
  product: 'Le Chat',
  howToExport: 'the Mistral account export; give the chat-<uuid>.json files',
  detect,
  toConversation,
};
