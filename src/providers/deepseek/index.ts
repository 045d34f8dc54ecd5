import { buildConversation } from '../../model/build-conversation.js';
import type { DraftMessage } from '../../model/draft.js';
import type { Attachment, Conversation, JsonObject } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import { baseName } from '../../read/entry.js';
import { notAConversation } from '../not-a-conversation.js';
import { messageAncestor } from '../mapping-ancestor.js';
import { anonymousId } from '../anonymous-id.js';
import type { ConversionContext, Detection, Provider } from '../provider.js';
import { asArray, asObject, asString, asText, without } from '../untrusted.js';
import { addressOf } from '../platform-url.js';

function detect(path: string, head: string): Detection | undefined {
  const name = baseName(path).toLowerCase();
  if (!name.endsWith('.json') || !/"mapping"\s*:/.test(head)) return undefined;
  // DeepSeek's mapping looks like ChatGPT's; its messages have fragments and inserted_at.
  if (!/"fragments"\s*:|"inserted_at"\s*:/.test(head)) return undefined;
  return {
    role: 'conversations',
    format: { kind: 'json', streamKeys: ['conversations'] },
    variant: /"fragments"\s*:/.test(head) ? 'fragments' : 'content',
  };
}

interface Part {
  kind: 'request' | 'think' | 'response' | 'other';
  text: string;
  raw: JsonObject;
}

// A node's message: fragments (REQUEST, THINK, RESPONSE, ...) or, in the older variant,
// content and reasoning_content.
function partsOf(message: JsonObject): Part[] {
  const fragments = asArray(message.fragments);
  if (fragments) {
    return fragments.flatMap((f): Part[] => {
      const fragment = asObject(f);
      if (!fragment) return [];
      const type = (asString(fragment.type) ?? '').toUpperCase();
      const kind =
        type === 'REQUEST'
          ? 'request'
          : type === 'THINK'
            ? 'think'
            : type === 'RESPONSE'
              ? 'response'
              : 'other';
      return [{ kind, text: asString(fragment.content) ?? '', raw: fragment }];
    });
  }
  const parts: Part[] = [];
  const reasoning = asText(message.reasoning_content);
  if (reasoning) parts.push({ kind: 'think', text: reasoning, raw: {} });
  const content = asString(message.content) ?? '';
  parts.push({
    kind: asString(message.role) === 'user' ? 'request' : 'response',
    text: content,
    raw: {},
  });
  return parts;
}

/** A node's message as one draft per part, chained: the last part carries the node's key. */
function messageDrafts(
  key: string,
  message: JsonObject,
  parentKey: string | null,
  context: ConversionContext,
): DraftMessage[] {
  const createdAt = toTimestamp(message.inserted_at);
  const model = asText(message.model) ?? null;
  const attachments = fileAttachments(message);
  const all = partsOf(message);
  const others = reportOtherFragments(all, context);
  const kept = all.filter((part) => part.kind !== 'other');
  const parts = kept.length > 0 ? kept : [{ kind: 'response' as const, text: '', raw: {} }];
  const rest = without(message, [
    'fragments',
    'content',
    'reasoning_content',
    'inserted_at',
    'model',
    'files',
  ]);
  let parent = parentKey;
  return parts.map((part, n): DraftMessage => {
    const partKey = n === parts.length - 1 ? key : `${key}#${n}`;
    const role = part.kind === 'request' ? 'user' : 'assistant';
    const draft: DraftMessage = {
      key: partKey,
      parentKey: parent,
      childKeys: [],
      provider_message_id: key,
      role,
      content: { type: 'text', text: part.text },
      createdAt,
      model: role === 'assistant' ? model : null,
      is_thought: part.kind === 'think',
      attachments: n === parts.length - 1 ? attachments : [],
      citations: [],
      tool_calls: [],
      raw_metadata:
        n === parts.length - 1
          ? { ...rest, ...(others.length > 0 ? { other_fragments: others } : {}) }
          : {},
    };
    parent = partKey;
    return draft;
  });
}

function fileAttachments(message: JsonObject): Attachment[] {
  return (asArray(message.files) ?? []).flatMap((f) => {
    const file = asObject(f);
    const name = asText(file?.file_name) ?? asText(file?.name) ?? null;
    return file
      ? [
          {
            type: 'file' as const,
            name,
            mime_type: null,
            size_bytes: null,
            ref: null,
            provider_id: asText(file.id) ?? null,
          },
        ]
      : [];
  });
}

/** Fragments of other types (SEARCH, ...) are kept whole on the message and counted. */
function reportOtherFragments(parts: Part[], context: ConversionContext): JsonObject[] {
  const others = parts.filter((part) => part.kind === 'other').map((part) => part.raw);
  for (const other of others) {
    context.report({
      level: 'info',
      code: 'unknown-fragment-type',
      message: `fragment type "${asString(other.type) ?? ''}" is not mapped; it is kept in raw_metadata.other_fragments`,
      record: context.record,
    });
  }
  return others;
}

function toConversation(
  raw: unknown,
  variant: string,
  context: ConversionContext,
): Conversation | undefined {
  const conversation = asObject(raw);
  const mapping = asObject(conversation?.mapping);
  if (!conversation || !mapping) {
    notAConversation(context, 'the record has no `mapping`');
    return;
  }
  const id = asText(conversation.id) ?? anonymousId('deepseek', raw, context);
  const drafts: DraftMessage[] = [];
  // The last message key a node's parts end on, for its children to hang from.
  const lastKey = new Map<string, string>();
  const order = Object.keys(mapping);
  const ancestors = new Map<string, string | null>();
  for (const key of order) {
    const node = asObject(mapping[key]);
    const message = asObject(node?.message);
    if (!node || !message) continue;
    const parentNode = messageAncestor(mapping, asString(node.parent), ancestors);
    const parent = parentNode === null ? null : (lastKey.get(parentNode) ?? parentNode);
    const nodeDrafts = messageDrafts(key, message, parent, context);
    for (const item of nodeDrafts) drafts.push(item);
    lastKey.set(key, nodeDrafts.at(-1)?.key ?? parent ?? key);
  }
  return buildConversation(
    {
      provider: {
        name: 'deepseek',
        conversation_id: id,
        account_id: null,
        export_format_version: `deepseek/${variant}`,
      },
      title: asText(conversation.title) ?? null,
      createdAt: toTimestamp(conversation.inserted_at),
      updatedAt: toTimestamp(conversation.updated_at),
      messages: drafts,
      // No current node in DeepSeek exports: the latest leaf is the shown branch.
      shownLeafKey: undefined,
      model: null,
      system_instruction: null,
      is_archived: false,
      raw_metadata: without(conversation, ['id', 'title', 'inserted_at', 'updated_at', 'mapping']),
      assistantName: 'DeepSeek',
    },
    context,
  );
}

/** DeepSeek (Settings → Data → Export all history → `conversations.json`). */
export const deepseek: Provider = {
  conversationUrl: (id) => addressOf('https://chat.deepseek.com/a/chat/s/', id),
  name: 'deepseek',
  source: 'deepseek',
  label: 'DeepSeek',
  product: 'DeepSeek',
  howToExport: 'Settings → Data → Export all history; give conversations.json',
  detect,
  toConversation,
};
