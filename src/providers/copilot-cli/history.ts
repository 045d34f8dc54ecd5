import type { Conversation } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import { AgentLog, logConversation } from '../agent-log.js';
import { callInput } from '../call-input.js';
import type { ConversionContext } from '../provider.js';
import { contextKindOf } from '../session-context.js';
import { toolResultText } from '../tool-result-text.js';
import { ChatMessage, HistorySession } from './raw.js';

/**
 * Converts the first Copilot CLI's session dump (`history-session-state/session_…json`): the
 * chat messages it sent the model, in order (system prompts as the session's context, tool
 * results paired with their calls by id, or by order where a result names none). The dump has
 * no time but the session's start: its messages are given none.
 */
export function historyConversation(
  raw: unknown,
  context: ConversionContext,
): Conversation | undefined {
  const parsed = HistorySession.safeParse(raw);
  if (!parsed.success) {
    context.report({
      level: 'error',
      code: 'not-a-session',
      message: 'the session dump is not a JSON object; skipped',
      record: context.record,
    });
    return undefined;
  }
  const session = parsed.data;
  const log = new AgentLog(context);
  const state: ChatState = { log, prompts: new Set(), waiting: [], made: 0 };
  for (const [i, item] of (session.chatMessages ?? []).entries()) {
    const message = ChatMessage.safeParse(item);
    const record = `chatMessages[${i}]`;
    if (message.success) chatMessage(message.data, state, record, context);
    else
      context.report({
        level: 'warning',
        code: 'bad-record',
        message: `${record} is not a chat message; skipped`,
        record,
      });
  }
  const time = toTimestamp(session.startTime);
  return logConversation(
    {
      provider: 'copilot-cli',
      id: session.sessionId ?? context.file.replace(/^.*\//, '').replace(/\.json$/i, ''),
      format: 'copilot-cli/history-session-state',
      createdAt: time,
      raw: { timeline_entries: session.timeline?.length ?? 0 },
      assistantName: 'Copilot',
    },
    log,
    context,
  );
}

/** What reading a dump's chat messages keeps between them. */
interface ChatState {
  log: AgentLog;
  /** System prompts kept (each distinct one once). */
  prompts: Set<string>;
  /** Calls without a result yet, for results that name no call (the first CLI's, at times). */
  waiting: { id: string; name: string }[];
  /** Ids made for calls that had none. */
  made: number;
}

function chatMessage(
  message: ReturnType<typeof ChatMessage.parse>,
  state: ChatState,
  record: string,
  context: ConversionContext,
): void {
  const { log, prompts, waiting } = state;
  const { role, content, tool_calls: calls, tool_call_id: answers, name } = message;
  const text = content === undefined || content === null ? '' : toolResultText(content);
  if (role === 'system' || role === 'developer') {
    if (text !== '' && !prompts.has(text)) {
      prompts.add(text);
      log.contextTurn('system-prompt', { role: 'system', text });
    }
  } else if (role === 'user') {
    const kind = contextKindOf(text);
    if (kind !== undefined) log.contextTurn(kind, { role: 'user', text });
    else log.add({ role: 'user', text });
  } else if (role === 'assistant') {
    if (text !== '' || calls.length === 0) log.add({ role: 'assistant', text });
    for (const call of calls) {
      const id = call.id ?? `call-${++state.made}`;
      const callName = call.function?.name ?? 'tool';
      const input = callInput(call.function?.arguments);
      log.call({ id, name: callName, input, output: null }, undefined, null);
      waiting.push({ id, name: callName });
    }
  } else if (role === 'tool') {
    const at =
      answers !== undefined
        ? waiting.findIndex((w) => w.id === answers)
        : waiting.findIndex((w) => name === undefined || w.name === name);
    const id = answers ?? waiting[at]?.id;
    if (at >= 0) waiting.splice(at, 1);
    log.result(id, text);
  } else
    context.report({
      level: 'info',
      code: 'unknown-entry-type',
      message: `${record} has role "${role ?? 'none'}", which is not mapped; skipped`,
      record,
    });
}
