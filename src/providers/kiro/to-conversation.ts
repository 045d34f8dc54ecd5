import { buildConversation } from '../../model/build-conversation.js';
import type { DraftMessage } from '../../model/draft.js';
import type { Conversation, JsonObject, ToolCall } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import type { SqliteSessionRecord } from '../../read/sqlite-query.js';
import type { ConversionContext } from '../provider.js';
import { asArray, asObject, asString, asText, without } from '../untrusted.js';

/**
 * Converts a Kiro CLI conversation (its `ConversationState`): each history entry's prompt, the
 * reply or the tool uses that answered it, and the tool results that came back in the next
 * entry (paired by id, not turns of their own); the working folder, the model, and the
 * context Kiro adds to a prompt (`additional_context`), kept as context, not as words.
 */
export function toKiroConversation(
  record: SqliteSessionRecord,
  context: ConversionContext,
): Conversation | undefined {
  const state = asObject(record.session.value);
  if (!state) return undefined;
  const id = asText(record.session.conversation_id) ?? asText(state.conversation_id) ?? record.id;
  const drafts: DraftMessage[] = [];
  const calls = new Map<string, { call: ToolCall; owner: DraftMessage }>();
  let previous: string | null = null;
  let cwd = record.source === 'conversations' ? asText(record.session.key) : undefined;
  const model = asText(state.model) ?? asText(asObject(state.model_info)?.model_id) ?? null;
  const history = asArray(state.history) ?? [];
  history.forEach((item, n) => {
    // Older states keep each entry as a [user, assistant] pair.
    const pair = asArray(item);
    const entry = pair ? { user: pair[0], assistant: pair[1] } : (asObject(item) ?? {});
    const user = asObject(entry.user);
    const meta = asObject(entry.request_metadata);
    cwd ??= asText(asObject(asObject(user?.env_context)?.env_state)?.current_working_directory);
    const prompt = user ? userDraft(user, `${id}#${n}u`, previous, calls, context) : undefined;
    if (prompt) {
      drafts.push(prompt);
      previous = prompt.key;
    }
    const reply = asObject(entry.assistant);
    if (!reply) return;
    const draft = assistantDraft(reply, `${id}#${n}a`, previous, meta, model);
    drafts.push(draft);
    for (const call of draft.tool_calls)
      if (call.id !== null) calls.set(call.id, { call, owner: draft });
    previous = draft.key;
  });
  if (drafts.length === 0) {
    context.report({
      level: 'warning',
      code: 'empty-session',
      message: `conversation ${id} holds no messages; skipped`,
      record: id,
    });
    return undefined;
  }
  const raw: JsonObject = without(state, [
    'history',
    'transcript',
    'tools',
    'conversation_id',
    'context_manager',
  ]);
  if (cwd) raw.cwd = cwd;
  if (asText(record.session.key)) raw.store_key = record.session.key;
  return buildConversation(
    {
      provider: {
        name: 'kiro',
        conversation_id: id,
        account_id: null,
        export_format_version: `kiro/${record.source}`,
      },
      // Kiro names no conversation: its first prompt does.
      title: firstWords(drafts),
      createdAt: toTimestamp(record.session.created_at) ?? drafts[0]?.createdAt,
      updatedAt: toTimestamp(record.session.updated_at),
      messages: drafts,
      shownLeafKey: undefined,
      model,
      system_instruction: null,
      is_archived: false,
      raw_metadata: raw,
      assistantName: 'Kiro',
    },
    context,
  );
}

function userDraft(
  user: JsonObject,
  key: string,
  parentKey: string | null,
  calls: Map<string, { call: ToolCall; owner: DraftMessage }>,
  context: ConversionContext,
): DraftMessage | undefined {
  const content = asObject(user.content) ?? {};
  const prompt = asObject(content.Prompt);
  const results = asObject(content.ToolUseResults) ?? asObject(content.CancelledToolUses);
  for (const item of asArray(results?.tool_use_results) ?? [])
    pairResult(asObject(item), calls, context, key);
  const words = asString(prompt?.prompt) ?? asString(asObject(content.CancelledToolUses)?.prompt);
  if (words === undefined) return undefined;
  const raw: JsonObject = {};
  const added = asText(user.additional_context);
  if (added) {
    raw.has_injected_context = true;
    raw.injected_context_at = words.length + 2;
  }
  const env = asObject(asObject(user.env_context)?.env_state);
  if (env) raw.env_state = without(env, ['environment_variables']);
  return {
    key,
    parentKey,
    provider_message_id: null,
    role: 'user',
    content: { type: 'text', text: added ? `${words}\n\n${added}` : words },
    createdAt: toTimestamp(user.timestamp),
    model: null,
    is_thought: false,
    attachments: [],
    citations: [],
    tool_calls: [],
    raw_metadata: raw,
  };
}

function assistantDraft(
  reply: JsonObject,
  key: string,
  parentKey: string | null,
  meta: JsonObject | undefined,
  model: string | null,
): DraftMessage {
  const response = asObject(reply.Response);
  const toolUse = asObject(reply.ToolUse);
  const body = response ?? toolUse ?? {};
  const calls = (asArray(toolUse?.tool_uses) ?? []).flatMap((item, n): ToolCall[] => {
    const use = asObject(item);
    if (!use) return [];
    return [
      {
        id: asText(use.id) ?? `${key}#tool-${n}`,
        name: asText(use.name) ?? asText(use.orig_name) ?? 'unknown',
        input: asObject(use.args) ?? asObject(use.orig_args) ?? null,
        output: null,
      },
    ];
  });
  const raw: JsonObject = {};
  if (asText(body.message_id)) raw.message_id = body.message_id;
  if (meta) raw.request_metadata = meta;
  return {
    key,
    parentKey,
    provider_message_id: asText(body.message_id) ?? null,
    role: 'assistant',
    content: { type: 'text', text: asString(body.content) ?? '' },
    createdAt:
      toTimestamp(meta?.stream_end_timestamp_ms) ?? toTimestamp(meta?.request_start_timestamp_ms),
    model: asText(meta?.model_id) ?? model,
    is_thought: false,
    attachments: [],
    citations: [],
    tool_calls: calls,
    raw_metadata: raw,
  };
}

function pairResult(
  result: JsonObject | undefined,
  calls: Map<string, { call: ToolCall; owner: DraftMessage }>,
  context: ConversionContext,
  key: string,
): void {
  const id = asText(result?.tool_use_id);
  const found = id !== undefined ? calls.get(id) : undefined;
  const output = (asArray(result?.content) ?? [])
    .map((item) => {
      const block = asObject(item);
      const text = asString(block?.Text);
      return text ?? JSON.stringify(block?.Json ?? block ?? null);
    })
    .join('\n');
  if (!found) {
    context.report({
      level: 'warning',
      code: 'orphan-tool-result',
      message: `the tool result ${id ?? 'without an id'} has no matching tool use; skipped`,
      record: key,
    });
    return;
  }
  found.call.output = found.call.output === null ? output : `${found.call.output}\n${output}`;
  if (asString(result?.status) === 'Error' && found.call.id !== null) {
    const errors = asArray(found.owner.raw_metadata.tool_errors) ?? [];
    found.owner.raw_metadata.tool_errors = [...errors, found.call.id];
  }
}

function firstWords(drafts: readonly DraftMessage[]): string | null {
  const text = drafts.find((d) => d.role === 'user')?.content?.text ?? '';
  const words = text.split('\n\n')[0]?.trim() ?? '';
  if (words === '') return null;
  return words.length > 80 ? `${words.slice(0, 79)}…` : words;
}
