import { buildConversation } from '../../model/build-conversation.js';
import type { DraftMessage } from '../../model/draft.js';
import type { Attachment, Conversation, JsonObject, ToolCall } from '../../model/pam.js';
import { thoughtDrafts, type Thought } from '../../model/thought-drafts.js';
import { toTimestamp } from '../../model/time.js';
import { tokenUsageJson, type TokenUsage } from '../../model/token-usage.js';
import type { ConversionContext } from '../provider.js';
import { asArray, asNumber, asObject, asString, asText } from '../untrusted.js';

/** One Goose message, from its database row or its older JSON Lines file. */
export interface GooseMessage {
  key: string;
  role: string;
  created: unknown;
  content: unknown[];
  metadata: JsonObject | undefined;
}

/** A Goose session as both generations give it. */
export interface GooseSession {
  id: string;
  title: string | undefined;
  cwd: string | undefined;
  created: unknown;
  updated: unknown;
  raw: JsonObject;
  messages: GooseMessage[];
  /** Each model call's tokens (the store's `usage_ledger`), when it keeps them. */
  usage: JsonObject[];
}

interface Turn {
  texts: string[];
  thoughts: Thought[];
  calls: ToolCall[];
  attachments: Attachment[];
  raw: JsonObject;
}

/**
 * Converts a Goose session: text, thinking, tool requests paired by id with the responses that
 * come back in the next (user-role) message, images, and Goose's own notices marked hidden.
 * A user message holding only tool responses is not a turn: its results go to their calls.
 */
export function toGooseConversation(
  session: GooseSession,
  variant: string,
  context: ConversionContext,
): Conversation | undefined {
  const drafts: DraftMessage[] = [];
  const calls = new Map<string, { call: ToolCall; owner: DraftMessage }>();
  let previous: string | null = null;
  for (const message of session.messages) {
    const turn = readContent(message, calls, context);
    if (turn === 'results-only') continue;
    const assistant = message.role === 'assistant';
    const createdAt = toTimestamp(message.created);
    const thinking = thoughtDrafts(
      message.key,
      previous,
      turn.thoughts.map((t) => ({ ...t, createdAt })),
      null,
    );
    const visible = message.metadata?.userVisible;
    if (visible === false) turn.raw.hidden = true;
    if (message.metadata) turn.raw.metadata = message.metadata;
    const draft: DraftMessage = {
      key: message.key,
      parentKey: thinking.replyParent,
      provider_message_id: message.key,
      role: assistant ? 'assistant' : 'user',
      content: { type: 'text', text: turn.texts.join('\n\n') },
      createdAt,
      model: null,
      is_thought: false,
      attachments: turn.attachments,
      citations: [],
      tool_calls: turn.calls,
      raw_metadata: turn.raw,
    };
    for (const item of thinking.drafts) drafts.push(item);
    drafts.push(draft);
    for (const call of turn.calls) if (call.id !== null) calls.set(call.id, { call, owner: draft });
    previous = draft.key;
  }
  if (drafts.length === 0) {
    context.report({
      level: 'warning',
      code: 'empty-session',
      message: `session ${session.id} holds no messages; skipped`,
      record: session.id,
    });
    return undefined;
  }
  attachUsage(drafts, session.usage);
  const raw: JsonObject = { ...session.raw };
  if (session.cwd) raw.cwd = session.cwd;
  return buildConversation(
    {
      provider: {
        name: 'goose',
        conversation_id: session.id,
        account_id: null,
        export_format_version: `goose/${variant}`,
      },
      title: session.title ?? null,
      createdAt: toTimestamp(session.created),
      updatedAt: toTimestamp(session.updated),
      messages: drafts,
      shownLeafKey: undefined,
      model: null,
      system_instruction: null,
      is_archived: false,
      raw_metadata: raw,
      assistantName: 'Goose',
    },
    context,
  );
}

function readContent(
  message: GooseMessage,
  calls: Map<string, { call: ToolCall; owner: DraftMessage }>,
  context: ConversionContext,
): Turn | 'results-only' {
  const turn: Turn = { texts: [], thoughts: [], calls: [], attachments: [], raw: {} };
  let results = 0;
  let others = 0;
  for (const item of message.content) {
    const block = asObject(item);
    const type = asString(block?.type);
    if (!block || type === undefined) {
      others++;
      append(turn.raw, 'unknown_content', item);
      continue;
    }
    if (type === 'toolResponse') {
      results++;
      pairResult(block, calls, turn, context, message.key);
      continue;
    }
    others++;
    if (type === 'text') turn.texts.push(asString(block.text) ?? '');
    else if (type === 'thinking')
      turn.thoughts.push({ text: asString(block.thinking) ?? '', createdAt: undefined, raw: {} });
    else if (type === 'redactedThinking') append(turn.raw, 'redacted_thinking', block.data ?? null);
    else if (type === 'toolRequest' || type === 'frontendToolRequest')
      turn.calls.push(toolRequest(block, message.key, turn.calls.length));
    else if (type === 'image')
      turn.attachments.push({
        type: 'image',
        name: null,
        mime_type: asText(block.mimeType) ?? null,
        size_bytes: null,
        ref: null,
        provider_id: null,
      });
    else if (type === 'systemNotification') {
      // Goose's own notices in the chat: searchable, but not the person's words.
      turn.texts.push(asString(block.msg) ?? '');
      turn.raw.hidden = true;
      turn.raw.system_notification = asString(block.notificationType) ?? true;
    } else append(turn.raw, 'other_content', block);
  }
  if (results > 0 && others === 0) return 'results-only';
  return turn;
}

function toolRequest(block: JsonObject, messageKey: string, n: number): ToolCall {
  const call = asObject(block.toolCall);
  const value = asObject(call?.value);
  const failed = asString(call?.status) === 'error';
  return {
    id: asText(block.id) ?? `${messageKey}#tool-${n}`,
    name: asText(value?.name) ?? (failed ? 'invalid-tool-call' : 'unknown'),
    input: asObject(value?.arguments) ?? (failed ? { error: asString(call?.error) ?? null } : null),
    output: null,
  };
}

function pairResult(
  block: JsonObject,
  calls: Map<string, { call: ToolCall; owner: DraftMessage }>,
  turn: Turn,
  context: ConversionContext,
  messageKey: string,
): void {
  const id = asText(block.id);
  const result = asObject(block.toolResult);
  const failed = asString(result?.status) === 'error';
  const output = failed ? (asString(result?.error) ?? '') : resultText(result?.value);
  const found = id !== undefined ? calls.get(id) : undefined;
  if (!found) {
    context.report({
      level: 'warning',
      code: 'orphan-tool-result',
      message: `the tool response ${id ?? 'without an id'} has no matching request; kept in raw_metadata.orphan_tool_results`,
      record: messageKey,
    });
    append(turn.raw, 'orphan_tool_results', { tool_use_id: id ?? null, output });
    return;
  }
  found.call.output = found.call.output === null ? output : `${found.call.output}\n${output}`;
  const isError = failed || asObject(result?.value)?.isError === true;
  if (isError && found.call.id !== null)
    append(found.owner.raw_metadata, 'tool_errors', found.call.id);
}

// A result is MCP content: a list of blocks, or (newer) a CallToolResult holding one.
function resultText(value: unknown): string {
  const blocks = asArray(value) ?? asArray(asObject(value)?.content) ?? [];
  return blocks
    .map((item) => {
      const block = asObject(item);
      if (asString(block?.type) === 'text') return asString(block?.text) ?? '';
      const resource = asObject(block?.resource);
      if (resource) return asString(resource.text) ?? `[resource ${asString(resource.uri) ?? ''}]`;
      return `[${asString(block?.type) ?? 'content'}]`;
    })
    .join('\n');
}

// The ledger's calls carry no message id: each goes to the assistant message written last at
// or before its time (or the first one after), and its model with it.
function attachUsage(drafts: DraftMessage[], usage: readonly JsonObject[]): void {
  const replies = drafts.filter((d) => d.role === 'assistant' && !d.is_thought);
  for (const row of usage) {
    const at = toTimestamp(row.created_timestamp);
    const target =
      [...replies].reverse().find((d) => at !== undefined && (d.createdAt ?? '') <= at) ??
      replies[0];
    if (!target) continue;
    const sum: TokenUsage = { ...(asObject(target.raw_metadata.token_usage) ?? {}) };
    add(sum, 'input_tokens', row.input_tokens);
    add(sum, 'output_tokens', row.output_tokens);
    add(sum, 'cache_read_tokens', row.cache_read_tokens);
    add(sum, 'cache_creation_tokens', row.cache_write_tokens);
    const json = tokenUsageJson(sum);
    if (json) target.raw_metadata.token_usage = json;
    const model = asText(row.model);
    if (model) target.model = model;
  }
}

function add(usage: TokenUsage, field: keyof TokenUsage, value: unknown): void {
  const n = asNumber(value);
  if (n !== undefined) usage[field] = (usage[field] ?? 0) + n;
}

function append(raw: JsonObject, field: string, value: unknown): void {
  const list = Array.isArray(raw[field]) ? (raw[field] as unknown[]) : [];
  list.push(value);
  raw[field] = list;
}
