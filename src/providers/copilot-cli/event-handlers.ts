import type { JsonObject } from '../../model/pam.js';
import { callInput } from '../call-input.js';
import { contextKindOf } from '../session-context.js';
import type { At } from './agent-state.js';
import { userAttachments } from './attachments.js';
import {
  AssistantMessageData,
  ReasoningData,
  StartData,
  TextData,
  ToolCompleteData,
  ToolStartData,
  UsageData,
  UserMessageData,
  WorkingContext,
} from './raw.js';
import { resultText, uncachedUsage } from './results.js';

/** Kept at most in `raw_metadata.unknown_entries` (a future version's events). */
const UNKNOWN_KEPT = 50;

// Events the CLI writes that hold nothing to read as a message: counted in `entry_counts`.
const BOOKKEEPING = new Set([
  'session.info',
  'session.idle',
  'session.truncation',
  'session.snapshot_rewind',
  'session.mode_changed',
  'session.plan_changed',
  'session.todos_changed',
  'session.workspace_file_changed',
  'session.usage_checkpoint',
  'session.usage_info',
  'session.compaction_start',
  'session.context_cleared',
  'session.handoff',
  'session.task_complete',
  'session.permissions_changed',
  'session.session_limits_changed',
  'session.remote_steerable_changed',
  'session.binary_asset',
  'assistant.turn_start',
  'assistant.turn_end',
  'assistant.intent',
  'assistant.idle',
  'abort',
  'hook.start',
  'hook.end',
  'subagent.completed',
  'subagent.failed',
  'subagent.selected',
  'subagent.deselected',
  'tool.user_requested',
  'tool_search.activated',
  'pending_messages.modified',
  'permission.requested',
  'permission.completed',
  'user_input.requested',
  'user_input.completed',
  'command.queued',
  'command.execute',
  'command.completed',
]);

/** Reads one event into the agent it belongs to, or into the session's facts. */
export function readEvent(type: string, data: JsonObject, at: At, entry: JsonObject): void {
  const { facts } = at;
  if (type === 'session.start' || type === 'session.resume') {
    const start = StartData.parse(data);
    facts.sessionId ??= start.sessionId;
    facts.version = start.copilotVersion ?? facts.version;
    facts.model = start.selectedModel ?? facts.model;
    if (start.context) Object.assign(facts.context, start.context);
  } else if (type === 'session.context_changed')
    Object.assign(facts.context, WorkingContext.parse(data));
  else if (type === 'session.model_change')
    facts.model = TextData.parse(data).newModel ?? facts.model;
  else if (type === 'session.title_changed')
    facts.title = TextData.parse(data).title ?? facts.title;
  else if (type === 'session.shutdown') facts.shutdown = data;
  else if (type === 'user.message') userMessage(data, at);
  else if (type === 'assistant.reasoning') reasoning(data, at);
  else if (type === 'assistant.message') assistantMessage(data, at);
  else if (type === 'assistant.usage') {
    const usage = UsageData.parse(data);
    at.agent.log.usage(uncachedUsage(usage));
  } else if (type === 'tool.execution_start') toolStart(data, at);
  else if (type === 'tool.execution_complete') toolComplete(data, at);
  else if (!contextEvent(type, data, at) && !BOOKKEEPING.has(type) && !type.endsWith('_delta')) {
    if (facts.unknown.length < UNKNOWN_KEPT) facts.unknown.push(entry);
    at.context.report({
      level: 'info',
      code: 'unknown-entry-type',
      message: `event type "${type}" is not mapped; it is kept in raw_metadata.unknown_entries`,
      record: `line ${at.line}`,
    });
  }
}

function userMessage(data: JsonObject, at: At): void {
  const message = UserMessageData.parse(data);
  const text = message.content ?? '';
  const raw: JsonObject = {};
  for (const key of ['source', 'agentMode', 'interactionId', 'turnId'] as const) {
    const value = message[key];
    if (typeof value === 'string') raw[key === 'agentMode' ? 'agent_mode' : key] = value;
  }
  const { attachments, kept } = userAttachments(message.attachments ?? []);
  if (kept.length > 0) raw.attachments = kept;
  // Turns the CLI writes in the person's place: a skill's hidden prompt (`source: skill-…`),
  // autopilot's "continue", and the instruction and environment blocks other agents write too.
  const kind = message.source?.startsWith('skill-')
    ? 'skill'
    : message.isAutopilotContinuation === true
      ? 'autopilot'
      : contextKindOf(text);
  const turn = { role: 'user' as const, text, time: at.time, raw, parent: at.parent, attachments };
  if (kind !== undefined) at.agent.log.contextTurn(kind, turn);
  else at.agent.log.add(turn);
  at.agent.thoughts.clear();
}

function reasoning(data: JsonObject, at: At): void {
  const text = ReasoningData.parse(data).content ?? '';
  if (text === '' || at.agent.thoughts.has(text)) return;
  at.agent.thoughts.add(text);
  at.agent.log.thought(text, at.time, at.facts.model ?? null, {}, at.parent);
}

function assistantMessage(data: JsonObject, at: At): void {
  const message = AssistantMessageData.parse(data);
  const { log } = at.agent;
  const model = message.model ?? at.facts.model ?? null;
  let parent = at.parent;
  const thinking = message.reasoningText ?? '';
  if (thinking !== '' && !at.agent.thoughts.has(thinking))
    parent = log.thought(thinking, at.time, model, {}, parent).key;
  at.agent.thoughts.clear();
  const text = message.content ?? '';
  const calls = message.toolRequests;
  const reply =
    text !== '' || calls.length === 0
      ? log.add({
          role: 'assistant',
          text,
          time: at.time,
          model,
          id: message.messageId,
          parent,
          raw: message.phase !== undefined ? { phase: message.phase } : {},
        })
      : undefined;
  for (const request of calls)
    log.call(
      {
        id: request.toolCallId ?? null,
        name: request.name ?? 'tool',
        input: callInput(request.arguments),
        output: null,
      },
      at.time,
      model,
    );
  if (message.outputTokens !== undefined && !at.facts.callUsage)
    log.usage({ output_tokens: message.outputTokens }, reply);
}

function toolStart(data: JsonObject, at: At): void {
  const start = ToolStartData.parse(data);
  const { log } = at.agent;
  // A call the model's message did not list (one the person asked for, a hook's): made here.
  if (start.toolCallId === undefined || log.callOf(start.toolCallId)) return;
  log.call(
    {
      id: start.toolCallId,
      name: start.toolName ?? 'tool',
      input: callInput(start.arguments),
      output: null,
    },
    at.time,
    start.model ?? at.facts.model ?? null,
  );
}

function toolComplete(data: JsonObject, at: At): void {
  const done = ToolCompleteData.parse(data);
  const failed = done.success === false;
  at.agent.log.result(done.toolCallId, resultText(done.result, done.error), {
    error: failed,
    line: at.line,
  });
}

// Turns of the session's own context: the system prompt (each distinct one once), the
// compaction's summary, skills' and hooks' text, and the CLI's errors and warnings. Returns
// whether the event was one.
function contextEvent(type: string, data: JsonObject, at: At): boolean {
  const event = TextData.parse(data);
  const add = (kind: string, text: string | undefined, raw: JsonObject = {}): boolean => {
    if (text !== undefined && text !== '')
      at.agent.log.contextTurn(kind, {
        role: 'system',
        text,
        time: at.time,
        raw,
        parent: at.parent,
      });
    return true;
  };
  if (type === 'system.message') {
    const text = event.content ?? '';
    if (at.facts.systemPrompts.has(text)) return true;
    at.facts.systemPrompts.add(text);
    return add('system-prompt', text, event.role !== undefined ? { prompt_role: event.role } : {});
  }
  if (type === 'session.compaction_complete') return add('compaction', event.summaryContent);
  if (type === 'system.notification') return add('notification', event.content);
  if (type === 'skill.invoked')
    return add('skill', event.content, event.name !== undefined ? { skill: event.name } : {});
  if (type === 'session.error')
    return add('error', event.message, { error_type: event.errorType ?? null });
  if (type === 'session.warning')
    return add('warning', event.message, { warning_type: event.warningType ?? null });
  return false;
}
