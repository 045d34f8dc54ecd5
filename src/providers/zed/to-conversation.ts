import { buildConversation, conversationIdOf } from '../../model/build-conversation.js';
import type { DraftMessage } from '../../model/draft.js';
import type { Attachment, Conversation, JsonObject, ToolCall } from '../../model/pam.js';
import { thoughtDrafts } from '../../model/thought-drafts.js';
import { toTimestamp } from '../../model/time.js';
import { tokenUsageJson } from '../../model/token-usage.js';
import type { SqliteSessionRecord } from '../../read/sqlite-query.js';
import type { ConversionContext } from '../provider.js';
import { asArray, asNumber, asObject, asString, asText, without } from '../untrusted.js';
import { legacyMessages } from './legacy-thread.js';
import { currentMessages, type ZedMessage } from './thread-messages.js';

/**
 * Converts a Zed agent thread (the current `DbThread` 0.3.0, or the older `SerializedThread`
 * 0.1/0.2): user text with its @-mentions as attached text, the agent's text, thinking and
 * tool calls with their results (by id), the per-request token usage on the reply that ended
 * the request, the model, the project's first folder and its branch, and the sub-agents a
 * `spawn_agent` call started.
 */
export function toZedConversation(
  record: SqliteSessionRecord,
  context: ConversionContext,
): Conversation | undefined {
  const row = record.session;
  const data = asObject(row.data);
  if (!data) {
    context.report({
      level: 'error',
      code: 'malformed-record',
      message: `thread ${record.id} has no readable content; skipped`,
      record: record.id,
    });
    return undefined;
  }
  const version = asString(data.version);
  const current = version === '0.3.0' || (version === undefined && looksCurrent(data));
  const messages = current ? currentMessages(data) : legacyMessages(data);
  const model = asText(asObject(data.model)?.model) ?? null;
  const conversationId = conversationIdOf('zed', record.id);
  const drafts = toDrafts(record.id, messages, model, context, conversationId);
  if (current) attachRequestUsage(drafts, messages, asObject(data.request_token_usage));
  else attachLegacyUsage(drafts, messages, asArray(data.request_token_usage));
  if (drafts.length === 0) {
    context.report({
      level: 'warning',
      code: 'empty-session',
      message: `thread ${record.id} holds no messages; skipped`,
      record: record.id,
    });
    return undefined;
  }
  const snapshot = asObject(
    asArray(asObject(data.initial_project_snapshot)?.worktree_snapshots)?.[0],
  );
  const folders = (asString(row.folder_paths) ?? '').split('\n').filter((p) => p !== '');
  const raw: JsonObject = without(data, ['messages', 'title', 'summary', 'updated_at', 'version']);
  const cwd = folders[0] ?? asText(snapshot?.worktree_path);
  if (cwd) raw.cwd = cwd;
  if (folders.length > 1) raw.folder_paths = folders;
  const branch = asText(asObject(snapshot?.git_state)?.current_branch);
  if (branch) raw.git_branch = branch;
  const parent = asText(row.parent_id) ?? asText(asObject(data.subagent_context)?.parent_thread_id);
  if (parent) {
    raw.parent_session_id = parent;
    raw.parent_conversation_id = conversationIdOf('zed', parent);
  }
  raw.thread_version = version ?? null;
  return buildConversation(
    {
      provider: {
        name: 'zed',
        conversation_id: record.id,
        account_id: null,
        export_format_version: `zed/threads/${version ?? 'legacy'}`,
      },
      title: asText(data.title) ?? asText(data.summary) ?? asText(row.summary) ?? null,
      createdAt: toTimestamp(row.created_at) ?? drafts[0]?.createdAt,
      updatedAt: toTimestamp(data.updated_at) ?? toTimestamp(row.updated_at),
      messages: drafts,
      shownLeafKey: undefined,
      model,
      system_instruction: null,
      is_archived: false,
      raw_metadata: raw,
      assistantName: 'Zed Agent',
    },
    context,
  );
}

function looksCurrent(data: JsonObject): boolean {
  const first = asArray(data.messages)?.[0];
  return (
    first === 'Resume' ||
    asObject(first)?.User !== undefined ||
    asObject(first)?.Agent !== undefined
  );
}

function toDrafts(
  threadId: string,
  messages: ZedMessage[],
  model: string | null,
  context: ConversionContext,
  conversationId: string,
): DraftMessage[] {
  const drafts: DraftMessage[] = [];
  const calls = new Map<string, { call: ToolCall; owner: DraftMessage }>();
  let previous: string | null = null;
  messages.forEach((message, n) => {
    const key = `${threadId}#${n}`;
    const replyModel = message.role === 'assistant' ? model : null;
    const thinking = thoughtDrafts(key, previous, message.thoughts, replyModel);
    const attachments: Attachment[] = message.mentions.map((mention) => ({
      type: 'file',
      name: mention.name,
      mime_type: 'text/plain',
      size_bytes: null,
      ref: context.attachText(conversationId, mention.name, mention.text),
      provider_id: null,
    }));
    for (let i = 0; i < message.images; i++)
      attachments.push({
        type: 'image',
        name: null,
        mime_type: null,
        size_bytes: null,
        ref: null,
        provider_id: null,
      });
    const raw: JsonObject = { ...message.raw };
    if (message.key) raw.message_id = message.key;
    const draft: DraftMessage = {
      key,
      parentKey: thinking.replyParent,
      provider_message_id: message.key ?? null,
      role: message.role,
      content: { type: 'text', text: message.texts.join('\n\n') },
      createdAt: undefined,
      model: replyModel,
      is_thought: false,
      attachments,
      citations: [],
      tool_calls: message.calls,
      raw_metadata: raw,
    };
    for (const item of thinking.drafts) drafts.push(item);
    drafts.push(draft);
    for (const call of message.calls)
      if (call.id !== null) calls.set(call.id, { call, owner: draft });
    for (const result of message.results) pair(result, calls, draft, context);
    previous = key;
  });
  return drafts;
}

function pair(
  result: ZedMessage['results'][number],
  calls: Map<string, { call: ToolCall; owner: DraftMessage }>,
  holder: DraftMessage,
  context: ConversionContext,
): void {
  const found = calls.get(result.id);
  if (!found) {
    context.report({
      level: 'warning',
      code: 'orphan-tool-result',
      message: `the tool result ${result.id} has no matching tool use; kept in raw_metadata.orphan_tool_results`,
      record: context.record,
    });
    push(holder.raw_metadata, 'orphan_tool_results', {
      tool_use_id: result.id,
      output: result.output,
    });
    return;
  }
  found.call.output =
    found.call.output === null ? result.output : `${found.call.output}\n${result.output}`;
  if (result.isError) push(found.owner.raw_metadata, 'tool_errors', result.id);
  if (result.sessionId !== undefined)
    push(found.owner.raw_metadata, 'subagents', {
      tool_use_id: result.id,
      conversation_id: result.sessionId,
    });
}

// Current form: the usage of the request a user message started, kept by that message's id, is
// the last request's; it goes on the last agent reply before the next user message.
function attachRequestUsage(
  drafts: DraftMessage[],
  messages: ZedMessage[],
  usage: JsonObject | undefined,
): void {
  if (!usage) return;
  const replies = drafts.filter((d) => d.role === 'assistant' && !d.is_thought);
  const byKey = new Map<string, DraftMessage>();
  let r = 0;
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    const draft = replies[r++];
    if (draft && message.usageKey) byKey.set(message.usageKey, draft);
  }
  for (const [key, draft] of byKey) {
    const json = usageJson(asObject(usage[key]));
    if (json) draft.raw_metadata.token_usage = json;
  }
}

// Older form: one usage per message, by its index.
function attachLegacyUsage(
  drafts: DraftMessage[],
  messages: ZedMessage[],
  usage: unknown[] | undefined,
): void {
  if (!usage) return;
  const replies = drafts.filter((d) => !d.is_thought);
  messages.forEach((message, n) => {
    const json = message.role === 'assistant' ? usageJson(asObject(usage[n])) : undefined;
    const draft = replies[n];
    if (json && draft) draft.raw_metadata.token_usage = json;
  });
}

// Zed's TokenUsage is Anthropic's: input_tokens leaves the cached ones out.
function usageJson(usage: JsonObject | undefined): JsonObject | undefined {
  if (!usage) return undefined;
  const fields = {
    input_tokens: asNumber(usage.input_tokens),
    output_tokens: asNumber(usage.output_tokens),
    cache_read_tokens: asNumber(usage.cache_read_input_tokens),
    cache_creation_tokens: asNumber(usage.cache_creation_input_tokens),
  };
  return tokenUsageJson(
    Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)),
  );
}

function push(raw: JsonObject, field: string, value: unknown): void {
  const list = Array.isArray(raw[field]) ? (raw[field] as unknown[]) : [];
  list.push(value);
  raw[field] = list;
}
