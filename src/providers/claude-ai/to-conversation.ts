import { buildConversation, conversationIdOf } from '../../model/build-conversation.js';
import type { DraftMessage } from '../../model/draft.js';
import { thoughtDrafts } from '../../model/thought-drafts.js';
import { toolResultText } from '../tool-result-text.js';
import { stableId } from '../../model/ids.js';
import type { Attachment, Conversation, JsonObject, Role, ToolCall } from '../../model/pam.js';
import { toMicros, toTimestamp } from '../../model/time.js';
import { notAConversation } from '../not-a-conversation.js';
import { readAnthropicBlocks } from '../anthropic-blocks.js';
import type { ConversionContext } from '../provider.js';
import {
  asAbsoluteUrl,
  asArray,
  asCount,
  asObject,
  asString,
  asText,
  without,
} from '../untrusted.js';
import {
  IMAGE_EXTENSIONS,
  MAPPED_CONVERSATION_KEYS,
  MAPPED_MESSAGE_KEYS,
  ROOT_PARENT,
} from './raw.js';

const ROLES: Record<string, Role> = { human: 'user', user: 'user', assistant: 'assistant' };

interface PendingResult {
  block: JsonObject;
  holder: DraftMessage;
}

/** What converting the messages one by one builds up. */
interface DraftState {
  drafts: DraftMessage[];
  calls: Map<string, ToolCall>;
  results: PendingResult[];
  previousKey: string | null;
  withBlocks: boolean;
  withParents: boolean;
}

/**
 * Converts one Claude.ai conversation to PAM. Branches come from `parent_message_uuid`; without
 * it messages are chained in array order. Each `thinking` block becomes its own thought message
 * just before the reply, and each `tool_result` fills its `tool_use`'s output.
 */
export function toClaudeConversation(
  raw: unknown,
  variant: string,
  context: ConversionContext,
): Conversation | undefined {
  const conversation = asObject(raw);
  const chatMessages = asArray(conversation?.chat_messages);
  if (!conversation || !chatMessages) {
    notAConversation(
      context,
      'the record has no `chat_messages` array, so it is not a Claude.ai conversation',
    );
    return;
  }
  const platformId = platformIdOf(conversation, chatMessages, context);
  const model = asText(conversation.model) ?? null;
  const conversationId = conversationIdOf('claude', platformId);
  const state: DraftState = {
    drafts: [],
    calls: new Map(),
    results: [],
    previousKey: null,
    withBlocks: false,
    withParents: false,
  };
  for (const index of chronologicalOrder(chatMessages)) {
    const message = asObject(chatMessages[index]);
    if (!message) {
      context.report({
        level: 'error',
        code: 'malformed-message',
        message: `chat_messages[${index}] is not an object; skipped`,
        record: context.record,
      });
      continue;
    }
    addMessageDrafts(state, message, { index, conversationId, model, context });
  }
  for (const { block, holder } of state.results) pairResult(block, holder, state.calls, context);

  const era = state.withBlocks ? 'content-blocks' : '2024-text-only';
  return buildConversation(
    {
      provider: {
        name: 'claude',
        conversation_id: platformId,
        account_id: asText(asObject(conversation.account)?.uuid) ?? null,
        export_format_version: `claude/${variant}/${era}${state.withParents ? '+branches' : ''}`,
      },
      title: asText(conversation.name) ?? null,
      createdAt: toTimestamp(conversation.created_at),
      updatedAt: toTimestamp(conversation.updated_at),
      messages: state.drafts,
      shownLeafKey: asText(conversation.current_leaf_message_uuid),
      model,
      system_instruction: null,
      is_archived: false,
      raw_metadata: without(conversation, MAPPED_CONVERSATION_KEYS),
      assistantName: 'Claude',
    },
    context,
  );
}

/** The conversation's uuid; without one, a stable id derived from what the record holds. */
function platformIdOf(
  conversation: JsonObject,
  chatMessages: readonly unknown[],
  context: ConversionContext,
): string {
  const uuid = asText(conversation.uuid);
  if (uuid !== undefined) return uuid;
  const platformId = `anonymous-${stableId('claude-anonymous', JSON.stringify([conversation.created_at ?? null, chatMessages.length, conversation.name ?? null]))}`;
  context.report({
    level: 'warning',
    code: 'missing-conversation-id',
    message: `the conversation has no uuid; it is given the stable id ${platformId}`,
    record: context.record,
  });
  return platformId;
}

interface MessageContext {
  index: number;
  conversationId: string;
  model: string | null;
  context: ConversionContext;
}

/** Adds one chat message: its thought drafts, then the reply; its tool results wait to pair. */
function addMessageDrafts(state: DraftState, message: JsonObject, at: MessageContext): void {
  const { context, model } = at;
  const key = asText(message.uuid) ?? `index-${at.index}`;
  const parentField = asString(message.parent_message_uuid);
  if (parentField !== undefined) state.withParents = true;
  // The all-zero uuid marks a root; without the field, messages chain in array order.
  const parentKey: string | null =
    parentField === undefined
      ? state.previousKey
      : parentField === ROOT_PARENT || parentField === ''
        ? null
        : parentField;
  const role = roleOf(message, key, context);
  const createdAt = toTimestamp(message.created_at);
  const blocks = asArray(message.content);
  if (blocks && blocks.length > 0) state.withBlocks = true;
  const read = readAnthropicBlocks(blocks ?? [], state.calls, context, context.record);
  const raw: JsonObject = without(message, MAPPED_MESSAGE_KEYS);
  const text = messageText(message, blocks, read, raw);
  if (read.unknownBlocks.length > 0) raw.unknown_blocks = read.unknownBlocks;
  if (read.injected.length > 0) raw.injected_context = read.injected;
  if (read.toolUseExtras.length > 0) raw.tool_use_extras = read.toolUseExtras;
  const attachments = messageAttachments(message, read.images, raw, at);
  const thinking = thoughtDrafts(
    key,
    parentKey,
    read.thoughts.map((thought) => ({
      text: thought.text,
      createdAt: toTimestamp(thought.raw.start_timestamp) ?? createdAt,
      raw: { ...thought.raw, block: thought.block },
    })),
    role === 'assistant' ? model : null,
  );
  for (const item of thinking.drafts) state.drafts.push(item);
  const draft: DraftMessage = {
    key,
    parentKey: thinking.replyParent,
    provider_message_id: asText(message.uuid) ?? null,
    role,
    content: { type: 'text', text },
    createdAt,
    model: role === 'assistant' ? model : null,
    is_thought: false,
    attachments,
    citations: read.citations,
    tool_calls: read.toolCalls,
    raw_metadata: raw,
  };
  state.drafts.push(draft);
  for (const block of read.results) state.results.push({ block, holder: draft });
  state.previousKey = key;
}

function roleOf(message: JsonObject, key: string, context: ConversionContext): Role {
  const sender = asString(message.sender) ?? '';
  const role = ROLES[sender];
  if (role !== undefined) return role;
  context.report({
    level: 'warning',
    code: 'unknown-role',
    message: `message ${key} has the unknown sender "${sender}"; it is kept as a user message`,
    record: context.record,
  });
  return 'user';
}

/**
 * The 2024 format has no content[]; later, `text` repeats the blocks (with thinking glued on),
 * so it is used only when the blocks hold no text at all (then `raw.text_from` says so).
 */
function messageText(
  message: JsonObject,
  blocks: unknown[] | undefined,
  read: ReturnType<typeof readAnthropicBlocks>,
  raw: JsonObject,
): string {
  const rawText = asString(message.text) ?? '';
  if (!blocks || blocks.length === 0) return rawText;
  const text = read.texts.join('\n\n');
  if (text === '' && rawText !== '' && read.toolCalls.length === 0 && read.injected.length === 0) {
    raw.text_from = 'message.text';
    return rawText;
  }
  return text;
}

/** Inline images, pasted or attached texts (`attachments[]`) and uploaded `files[]`. */
function messageAttachments(
  message: JsonObject,
  images: Attachment[],
  raw: JsonObject,
  at: MessageContext,
): Attachment[] {
  const attachments: Attachment[] = [...images];
  const details: JsonObject[] = [];
  for (const a of asArray(message.attachments) ?? []) {
    const attachment = asObject(a);
    if (!attachment) continue;
    const kept = keepAttachment(attachment, at.conversationId, at.context);
    attachments.push(kept.attachment);
    details.push(kept.details);
  }
  if (details.length > 0) raw.attachment_details = details;
  for (const f of asArray(message.files) ?? []) {
    const file = asObject(f);
    if (!file) continue;
    const name = asText(file.file_name) ?? null;
    attachments.push({
      type:
        (name !== null && IMAGE_EXTENSIONS.test(name)) || file.file_kind === 'image'
          ? 'image'
          : 'file',
      name,
      mime_type: null,
      size_bytes: null,
      ref: null,
      provider_id: asText(file.file_uuid) ?? null,
    });
  }
  return attachments;
}

/**
 * One entry of a message's `attachments[]`: text the person pasted or attached, with its whole
 * text inlined as `extracted_content`. The text becomes a file of the bundle (PAM's Attachment
 * has no text field) that `ref` points to, so its size and type are the text file's; the
 * export's own fields (`file_type`, `file_size`, …) stay in `raw_metadata.attachment_details`.
 */
function keepAttachment(
  attachment: JsonObject,
  conversationId: string,
  context: ConversionContext,
): { attachment: Attachment; details: JsonObject } {
  const name = asText(attachment.file_name) ?? null;
  const fileType = asText(attachment.file_type);
  const mime = fileType?.includes('/') ? fileType : null;
  const extracted = asString(attachment.extracted_content);
  if (extracted === undefined || extracted === '') {
    return {
      attachment: {
        type: 'document',
        name,
        mime_type: mime,
        size_bytes: asCount(attachment.file_size),
        ref: null,
        provider_id: null,
      },
      details: without(attachment, ['extracted_content']),
    };
  }
  const ref = context.attachText(conversationId, name, extracted);
  return {
    attachment: {
      type: 'document',
      name,
      // The file at `ref` is the extracted text: a text type the export names, else plain text.
      mime_type: mime?.startsWith('text/') ? mime : 'text/plain',
      size_bytes: Buffer.byteLength(extracted, 'utf8'),
      ref,
      provider_id: null,
    },
    details: { ...without(attachment, ['extracted_content']), text_ref: ref },
  };
}

/**
 * Array indexes in time order, ties (and messages without a time) in array order. Messages
 * without `parent_message_uuid` chain in this order: the real 2024 export in the shared
 * fixtures lists an edited prompt first although it was sent 9 minutes in.
 */
function chronologicalOrder(messages: readonly unknown[]): number[] {
  let last = -Infinity;
  const keys = messages.map((item) => {
    const micros = toMicros(asObject(item)?.created_at);
    if (micros !== undefined) last = micros;
    return last;
  });
  return messages
    .map((_, i) => i)
    .sort((a, b) => (keys[a] as number) - (keys[b] as number) || a - b);
}

// A tool_result fills the output of the tool_use with its id (parallel calls each get theirs).
function pairResult(
  block: JsonObject,
  holder: DraftMessage,
  calls: ReadonlyMap<string, ToolCall>,
  context: ConversionContext,
): void {
  const id = asText(block.tool_use_id);
  for (const item of asArray(block.content) ?? []) {
    const object = asObject(item);
    // Knowledge items (web search results) are the reply's sources.
    if (object && (object.type === 'knowledge' || asText(object.url))) {
      const url = asAbsoluteUrl(object.url);
      const title = asText(object.title) ?? null;
      if (url !== null || title !== null)
        holder.citations.push({ title, url, snippet: asText(object.text) ?? null });
    }
  }
  const output = toolResultText(block.content);
  const details = without(block, ['type', 'content']);
  const list = Array.isArray(holder.raw_metadata.tool_results)
    ? (holder.raw_metadata.tool_results as unknown[])
    : [];
  list.push(details);
  holder.raw_metadata.tool_results = list;
  const call = id !== undefined ? calls.get(id) : undefined;
  if (!call) {
    context.report({
      level: 'warning',
      code: 'orphan-tool-result',
      message: `tool_result for ${id ?? 'no id'} has no matching tool_use; kept in raw_metadata.tool_results`,
      record: context.record,
    });
    details.output = output;
    return;
  }
  call.output = call.output === null ? output : `${call.output}\n${output}`;
}
