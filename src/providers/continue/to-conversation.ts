import type { Attachment, Conversation, JsonObject, ToolCall } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import { tokenUsageJson, type TokenUsage } from '../../model/token-usage.js';
import { AgentLog, logConversation } from '../agent-log.js';
import { callInput } from '../call-input.js';
import { notAConversation } from '../not-a-conversation.js';
import type { ConversionContext } from '../provider.js';
import { contextKindOf } from '../session-context.js';
import { asArray, asNumber, asObject, asString, asText } from '../untrusted.js';
import { uriPath } from '../vscode-copilot-chat/uris.js';
import {
  ChatMessage,
  ContinueSession,
  ContinueUsage,
  HistoryItem,
  SessionMetadata,
  ToolCallState,
} from './raw.js';

// The title Continue gives a session until it names it: the first prompt names it better.
const UNTITLED = 'New Session';

// How a tool call that did not finish well ended.
const FAILED = new Set(['errored', 'canceled']);

/** Where a history item is read, and what the session has told so far. */
interface At {
  log: AgentLog;
  context: ConversionContext;
  record: string;
  model: string | null;
  /** Outputs Continue kept on a call's state, given to the call when no `tool` message does. */
  outputs: Map<string, { text: string; failed: boolean }>;
  counts: Record<string, number>;
}

/**
 * Converts one Continue session (`<sessionId>.json`, read with `sessions.json` beside it for
 * its creation time) into a PAM conversation: the person's messages (text and images) with the
 * context items they attached kept as the session's context, the replies with their reasoning
 * (or `thinking` messages), tool calls and results (a `tool` message by `toolCallId`, else the
 * output on the call's state), the model each reply asked (its prompt log), the usage Continue
 * counted, and the workspace as the project. Continue keeps no time per message: the messages
 * take the session's.
 */
export function toContinueConversation(
  record: unknown,
  variant: string,
  context: ConversionContext,
): Conversation | undefined {
  const set = asObject(record) ?? {};
  const main = asObject(set.main);
  if (!main) {
    notAConversation(context, 'the session is not a JSON object');
    return undefined;
  }
  const session = ContinueSession.parse(main);
  const id = session.sessionId ?? (context.file.split('/').at(-1) ?? '').replace(/\.json$/i, '');
  const entry = listedSession(asString(asObject(set.side)?.['sessions.json']), id, context);
  const at: At = {
    log: new AgentLog(context),
    context,
    record: context.record,
    model: null,
    outputs: new Map(),
    counts: {},
  };
  (session.history ?? []).forEach((value, i) => {
    at.record = `history[${i}]`;
    readItem(HistoryItem.parse(asObject(value) ?? {}), at);
  });
  // Calls whose result only their state holds (no `tool` message came back with it).
  for (const [callId, output] of at.outputs)
    if (!at.log.answered(callId)) at.log.result(callId, output.text, { error: output.failed });
  const title = session.title ?? entry?.title;
  const created = toTimestamp(entry?.dateCreated);
  return logConversation(
    {
      provider: 'continue',
      id,
      format: `continue/${variant}`,
      title: title === UNTITLED ? null : title,
      createdAt: created,
      model: at.model ?? session.chatModelTitle ?? null,
      raw: sessionRaw(session, entry, at),
      assistantName: 'Continue',
    },
    at.log,
    context,
  );
}

function readItem(item: HistoryItem, at: At): void {
  const parsed = ChatMessage.safeParse(item.message);
  if (!item.message || !parsed.success) {
    at.context.report({
      level: 'warning',
      code: 'bad-record',
      message: `${at.record} holds no message; skipped`,
      record: at.record,
    });
    return;
  }
  const message = parsed.data;
  const role = message.role ?? '(no role)';
  at.counts[role] = (at.counts[role] ?? 0) + 1;
  const { log } = at;
  const text = contentText(message.content);
  if (role === 'user') {
    const attached = contextItemsText(item.contextItems);
    if (attached !== '')
      log.contextTurn('context-items', { role: 'user', text: attached, id: undefined });
    const turn = {
      role: 'user' as const,
      text,
      id: message.id,
      attachments: imagesOf(message.content),
    };
    const kind = contextKindOf(text);
    if (kind !== undefined) log.contextTurn(kind, turn);
    else log.add(turn);
  } else if (role === 'assistant') assistant(item, message, text, at);
  else if (role === 'thinking') {
    if (text !== '') log.thought(text, undefined, at.model);
  } else if (role === 'tool') {
    log.result(message.toolCallId, text);
    if (message.toolCallId !== undefined) at.outputs.delete(message.toolCallId);
  } else if (role === 'system') {
    if (text !== '') log.contextTurn('system-prompt', { role: 'system', text, id: message.id });
  } else
    at.context.report({
      level: 'info',
      code: 'unknown-entry-type',
      message: `${at.record} is a message of role "${role}", which is not mapped; skipped`,
      record: at.record,
    });
  // A summary Continue made of the conversation up to here (compaction): the session's context.
  if (item.conversationSummary !== undefined && item.conversationSummary !== '')
    log.contextTurn('compaction', { role: 'system', text: item.conversationSummary });
}

function assistant(item: HistoryItem, message: ChatMessage, text: string, at: At): void {
  const { log } = at;
  const model = modelOf(item.promptLogs) ?? at.model;
  at.model = model;
  const reasoning = asString(item.reasoning?.text);
  if (reasoning !== undefined && reasoning !== '') log.thought(reasoning, undefined, model);
  const states = [
    ...(item.toolCallStates ?? []),
    ...(item.toolCallState !== undefined ? [item.toolCallState] : []),
  ].flatMap((value) => {
    const state = ToolCallState.safeParse(value);
    return state.success ? [state.data] : [];
  });
  const calls = callsOf(message.toolCalls, states);
  // Continue puts an empty reply before a `thinking` message (the reply that streamed it):
  // nothing to keep.
  if (text === '' && calls.length === 0 && message.usage === undefined) {
    at.counts.empty_replies = (at.counts.empty_replies ?? 0) + 1;
    return;
  }
  const raw: JsonObject = {};
  if (text === '' && calls.length > 0) raw.tool_calls_only = true;
  const reply = log.add({ role: 'assistant', text, model, id: message.id, raw });
  for (const call of calls) log.call(call, undefined, model);
  for (const state of states) {
    const callId = state.toolCallId ?? asText(state.toolCall?.id);
    if (callId === undefined) continue;
    const output = outputText(state.output);
    const failed = state.status !== undefined && FAILED.has(state.status);
    if (output !== undefined) at.outputs.set(callId, { text: output, failed });
    else if (failed) at.outputs.set(callId, { text: `[${state.status ?? ''}]`, failed });
  }
  const usage = ContinueUsage.safeParse(message.usage);
  if (message.usage && usage.success) log.usage(continueUsage(usage.data), reply);
}

// The reply's calls: its own `toolCalls`, with the arguments its states parsed, and a state's
// call the message does not name (a state is all older sessions kept).
function callsOf(toolCalls: unknown[] | undefined, states: ToolCallState[]): ToolCall[] {
  const out: ToolCall[] = [];
  const seen = new Set<string>();
  const parsedArgs = new Map<string, unknown>();
  for (const state of states)
    if (state.toolCallId !== undefined && state.parsedArgs !== undefined)
      parsedArgs.set(state.toolCallId, state.parsedArgs);
  const add = (value: unknown): void => {
    const call = asObject(value);
    if (!call) return;
    const id = asText(call.id) ?? null;
    if (id !== null && seen.has(id)) return;
    if (id !== null) seen.add(id);
    const fn = asObject(call.function);
    const parsed = id !== null ? asObject(parsedArgs.get(id)) : undefined;
    out.push({
      id,
      name: asText(fn?.name) ?? asText(call.name) ?? 'tool',
      input: parsed ?? callInput(fn?.arguments ?? call.arguments),
      output: null,
    });
  };
  for (const call of toolCalls ?? []) add(call);
  for (const state of states) add(state.toolCall);
  return out;
}

/**
 * Continue's usage is OpenAI's: `promptTokens` counts the cached reads
 * (`promptTokensDetails.cachedTokens`), taken out of the input here.
 */
export function continueUsage(usage: ContinueUsage): TokenUsage {
  const cached = asNumber(usage.promptTokensDetails?.cachedTokens);
  const prompt = usage.promptTokens;
  return {
    input_tokens: prompt !== undefined ? Math.max(0, prompt - (cached ?? 0)) : undefined,
    output_tokens: usage.completionTokens,
    cache_read_tokens: cached,
    cache_creation_tokens: asNumber(usage.promptTokensDetails?.cacheWriteTokens),
    reasoning_tokens: asNumber(usage.completionTokensDetails?.reasoningTokens),
  };
}

// The model a reply asked: the last prompt log's (its options' model, else the model's title).
function modelOf(logs: unknown[] | undefined): string | null | undefined {
  const last = asObject((logs ?? []).at(-1));
  if (!last) return undefined;
  return asText(asObject(last.completionOptions)?.model) ?? asText(last.modelTitle) ?? undefined;
}

/** A message's text: a string as it is, or its text parts joined. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return (asArray(content) ?? [])
    .flatMap((item) => {
      const part = asObject(item);
      return asString(part?.type) === 'text' ? [asString(part?.text) ?? ''] : [];
    })
    .join('\n');
}

// Images pasted into a prompt (`imageUrl` parts, their data URLs not copied).
function imagesOf(content: unknown): Attachment[] {
  return (asArray(content) ?? []).flatMap((item) => {
    const part = asObject(item);
    if (asString(part?.type) !== 'imageUrl') return [];
    const url = asString(asObject(part?.imageUrl)?.url) ?? '';
    return [
      {
        type: 'image' as const,
        name: null,
        mime_type: /^data:([\w/+.-]+);/.exec(url)?.[1] ?? null,
        size_bytes: null,
        ref: null,
        provider_id: null,
      },
    ];
  });
}

// The files, code and search results the person attached (`@file`, a selection, `@codebase`).
function contextItemsText(items: unknown[] | undefined): string {
  return (items ?? [])
    .flatMap((value) => {
      const item = asObject(value);
      if (!item) return [];
      const name = asText(item.name) ?? asText(item.description) ?? '';
      const content = asString(item.content) ?? '';
      return name === '' && content === '' ? [] : [`${name}\n${content}`.trim()];
    })
    .join('\n\n');
}

// A tool's output: the context items it returned, their texts joined.
function outputText(items: unknown[] | undefined): string | undefined {
  if (items === undefined || items.length === 0) return undefined;
  return items
    .map((value) => {
      const item = asObject(value);
      return asString(item?.content) ?? JSON.stringify(value);
    })
    .join('\n\n');
}

// The last `sessions.json` read, by its text: every session of a folder is read with the same
// list, parsed once.
let lastList: { text: string; byId: Map<string, SessionMetadata> | undefined } | undefined;

function listedSession(
  text: string | undefined,
  id: string,
  context: ConversionContext,
): SessionMetadata | undefined {
  if (text === undefined) return undefined;
  if (lastList?.text !== text) lastList = { text, byId: sessionsById(text) };
  if (lastList.byId === undefined)
    context.report({
      level: 'warning',
      code: 'bad-side-file',
      message:
        'sessions.json beside the session is not JSON; the session is read without its creation time',
      record: context.record,
    });
  return lastList.byId?.get(id);
}

function sessionsById(text: string): Map<string, SessionMetadata> | undefined {
  let list: unknown;
  try {
    list = JSON.parse(text);
  } catch {
    // Reported for each session read with it.
    return undefined;
  }
  const byId = new Map<string, SessionMetadata>();
  for (const value of asArray(list) ?? []) {
    const entry = SessionMetadata.safeParse(value);
    if (entry.success && entry.data.sessionId !== undefined && !byId.has(entry.data.sessionId))
      byId.set(entry.data.sessionId, entry.data);
  }
  return byId;
}

function sessionRaw(
  session: ContinueSession,
  listed: SessionMetadata | undefined,
  at: At,
): JsonObject {
  const raw: JsonObject = {};
  const workspace = session.workspaceDirectory ?? listed?.workspaceDirectory;
  if (workspace !== undefined && workspace !== '') {
    raw.workspace_directory = workspace;
    const path = uriPath(workspace);
    if (path !== undefined) raw.cwd = path;
  }
  if (session.mode !== undefined) raw.mode = session.mode;
  if (session.chatModelTitle !== undefined) raw.chat_model_title = session.chatModelTitle;
  // The session's own total, as Continue counts it, beside each reply's.
  const total = ContinueUsage.safeParse(session.usage);
  if (session.usage && total.success) {
    const usage = tokenUsageJson(continueUsage(total.data));
    if (usage) raw.session_token_usage = usage;
  }
  raw.message_counts = at.counts;
  return raw;
}
