import type { Attachment, JsonObject } from '../../model/pam.js';
import { AgentLog } from '../agent-log.js';
import { callInput } from '../call-input.js';
import type { ConversionContext } from '../provider.js';
import { contextKindOf } from '../session-context.js';
import { toolResultText } from '../tool-result-text.js';
import { asObject, asText } from '../untrusted.js';
import { VibeMessage, type VibeMeta } from './raw.js';

/** One message of a session, with where it was read (a file's line, a list's index). */
export interface PlacedMessage {
  value: unknown;
  record: string;
}

/** A `task` call: Vibe's sub-agent, asked to do `task` as the agent profile `agent`. */
export interface TaskCall {
  id: string;
  task: string | undefined;
  agent: string | undefined;
}

/** A session's messages drafted, and the sub-agent tasks it started. */
export interface SessionLog {
  log: AgentLog;
  tasks: TaskCall[];
  /** The first words the session was given (a sub-agent's task), to find the call that gave them. */
  firstPrompt: string | undefined;
}

/**
 * Drafts a Vibe session's messages: the system prompt `meta.json` keeps, then each message in
 * order (reasoning as thoughts, tool calls paired with their results by id); the messages Vibe
 * injects in the person's place (`injected: true`: a compaction's summary, a hook's output, a
 * plan-file notice) kept as the session's context. Vibe writes no time on a message.
 */
export function sessionLog(
  meta: VibeMeta,
  messages: readonly PlacedMessage[],
  context: ConversionContext,
): SessionLog {
  const log = new AgentLog(context);
  const model = modelOf(meta);
  const prompts = new Set<string>();
  const system = textOf(meta.system_prompt?.content);
  if (system !== '') {
    prompts.add(system);
    log.contextTurn('system-prompt', { role: 'system', text: system });
  }
  const out: SessionLog = { log, tasks: [], firstPrompt: undefined };
  for (const { value, record } of messages) {
    const parsed = VibeMessage.safeParse(value);
    if (!parsed.success) {
      context.report({
        level: 'warning',
        code: 'bad-record',
        message: `${record} is not a message; skipped`,
        record,
      });
      continue;
    }
    readMessage(parsed.data, { out, model, prompts, record, context });
  }
  return out;
}

interface MessageAt {
  out: SessionLog;
  model: string | null;
  prompts: Set<string>;
  record: string;
  context: ConversionContext;
}

function readMessage(message: VibeMessage, at: MessageAt): void {
  const { log } = at.out;
  const text = textOf(message.content);
  const id = message.message_id;
  const raw: JsonObject = {};
  if (message.user_display_content) raw.user_display_content = message.user_display_content;
  if (message.role === 'user') {
    const turn = { role: 'user' as const, text, id, raw, attachments: images(message.images) };
    if (message.injected === true) log.contextTurn(contextKindOf(text) ?? 'injected', turn);
    else {
      const kind = contextKindOf(text);
      if (kind !== undefined) log.contextTurn(kind, turn);
      else {
        log.add(turn);
        at.out.firstPrompt ??= text;
      }
    }
  } else if (message.role === 'assistant') {
    const thinking = textOf(message.reasoning_content);
    if (thinking !== '') log.thought(thinking, undefined, at.model);
    const calls = message.tool_calls;
    if (text !== '' || calls.length === 0)
      log.add({ role: 'assistant', text, id, model: at.model, raw });
    for (const call of calls) {
      const name = call.function?.name ?? 'tool';
      const input = callInput(call.function?.arguments);
      log.call({ id: call.id ?? null, name, input, output: null }, undefined, at.model);
      const args = asObject(input);
      if (name === 'task' && call.id !== undefined)
        at.out.tasks.push({ id: call.id, task: asText(args?.task), agent: asText(args?.agent) });
    }
  } else if (message.role === 'tool') log.result(message.tool_call_id, text);
  else if (message.role === 'system') {
    if (text !== '' && !at.prompts.has(text)) {
      at.prompts.add(text);
      log.contextTurn('system-prompt', { role: 'system', text });
    }
  } else
    at.context.report({
      level: 'info',
      code: 'unknown-entry-type',
      message: `${at.record} has role "${message.role ?? 'none'}", which is not mapped; skipped`,
      record: at.record,
    });
}

/** The model the session ran with: the configured model its `active_model` alias names. */
export function modelOf(meta: VibeMeta): string | null {
  const alias = meta.config?.active_model;
  if (alias === undefined) return null;
  return meta.config?.models.find((m) => m.alias === alias)?.name ?? alias;
}

// Vibe's content is text, or (read back) a list of parts: their texts joined.
function textOf(content: unknown): string {
  if (content === undefined || content === null) return '';
  return toolResultText(content);
}

// Images a person attached: by their file (the current `source`) or an earlier flat `path`.
function images(list: readonly unknown[] | undefined): Attachment[] {
  return (list ?? []).flatMap((item) => {
    const image = asObject(item);
    if (!image) return [];
    const path = asText(asObject(image.source)?.path) ?? asText(image.path);
    return [
      {
        type: 'image' as const,
        name: asText(image.alias) ?? path ?? null,
        mime_type: asText(image.mime_type) ?? null,
        size_bytes: null,
        ref: null,
        provider_id: path ?? null,
      },
    ];
  });
}
