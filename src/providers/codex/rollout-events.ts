import type { JsonObject } from '../../model/pam.js';
import { usageOfCachedInput, type TokenUsage } from '../../model/token-usage.js';
import { contextKindOf } from '../session-context.js';
import { asArray, asNumber, asObject, asString, asText } from '../untrusted.js';
import { contentOf, outputOf, type ItemAt } from './response-items.js';

/** What events tell the session beyond its messages. */
export interface EventState {
  title: string | undefined;
  /** The last cumulative usage counted, so the same `token_count` written twice counts once. */
  lastTotal: string | undefined;
  /** Event types seen, counted (most are the app's bookkeeping). */
  counts: Record<string, number>;
}

/**
 * Reads one `event_msg`. The person's and the model's words are items too (`response_item`):
 * an event saying what an item said is dropped, so each exchange is stored once; one that
 * no item says (older rollouts wrote some words only as events) is kept.
 */
export function readEvent(payload: JsonObject, at: ItemAt, state: EventState): void {
  const type = asString(payload.type) ?? '(no type)';
  state.counts[type] = (state.counts[type] ?? 0) + 1;
  switch (type) {
    case 'user_message': {
      userMessage(payload, at);
      return;
    }
    case 'agent_message': {
      const text = asString(payload.message) ?? '';
      if (text !== '' && !at.said.take('assistant', text))
        at.log.add({
          role: 'assistant',
          text,
          time: at.time,
          model: at.model,
          raw: { from_event: true },
        });
      return;
    }
    case 'agent_reasoning':
    case 'agent_reasoning_raw_content': {
      const text = asString(payload.text) ?? '';
      if (text !== '' && !at.said.take('reasoning', text))
        at.log.thought(text, at.time, at.model, { from_event: true });
      return;
    }
    case 'token_count': {
      tokenCount(payload, at, state);
      return;
    }
    case 'thread_name_updated':
      state.title = asText(payload.thread_name) ?? state.title;
      return;
    case 'exec_command_end':
    case 'patch_apply_end':
    case 'mcp_tool_call_end': {
      commandEnd(payload, at);
      return;
    }
    case 'collab_agent_spawn_end': {
      const call = asText(payload.call_id);
      const child = asText(payload.new_thread_id) ?? asText(payload.thread_id);
      if (call !== undefined && child !== undefined) at.log.started(call, child);
      return;
    }
    case 'error':
    case 'stream_error': {
      const text = asString(payload.message) ?? '';
      if (text !== '') at.log.contextTurn('error', { role: 'system', text, time: at.time });
      return;
    }
    default:
  }
}

function userMessage(payload: JsonObject, at: ItemAt): void {
  const text = asString(payload.message) ?? '';
  const images = contentOf(
    (asArray(payload.images) ?? []).map((url) => ({ type: 'input_image', image_url: url })),
  ).images;
  if ((text === '' && images.length === 0) || at.said.take('user', text)) return;
  const kind = contextKindOf(text);
  const message = {
    role: 'user' as const,
    text,
    time: at.time,
    raw: { from_event: true },
    attachments: images,
  };
  if (kind !== undefined) at.log.contextTurn(kind, message);
  else at.log.add(message);
}

// The end of a command, a patch or an MCP call (written in the extended mode): its output, for
// a call whose output item is not in the rollout.
function commandEnd(payload: JsonObject, at: ItemAt): void {
  const id = asText(payload.call_id);
  if (id === undefined || at.log.answered(id)) return;
  const text =
    asString(payload.aggregated_output) ??
    asString(payload.formatted_output) ??
    [asString(payload.stdout), asString(payload.stderr)].filter(Boolean).join('\n');
  const result =
    payload.result !== undefined
      ? outputOf(asObject(payload.result)?.Ok ?? payload.result)
      : undefined;
  const exit = asNumber(payload.exit_code);
  const failed = (exit !== undefined && exit !== 0) || payload.success === false;
  const output = result?.text ?? text;
  if (output !== '') at.log.result(id, output, { error: failed, line: at.line });
}

/**
 * One model call's tokens: `info.last_token_usage` (older rollouts: the fields themselves),
 * `input_tokens` less `cached_input_tokens` (Codex counts cached reads inside its input), on
 * the message the call wrote. A repeated cumulative total (the same event written again) and
 * an event with no usage (a rate-limit update) count nothing.
 */
function tokenCount(payload: JsonObject, at: ItemAt, state: EventState): void {
  const info = asObject(payload.info);
  const last = info
    ? asObject(info.last_token_usage)
    : payload.input_tokens !== undefined
      ? payload
      : undefined;
  if (!last) return;
  const total = info ? JSON.stringify(info.total_token_usage ?? null) : undefined;
  if (total !== undefined && total !== 'null') {
    if (total === state.lastTotal) return;
    state.lastTotal = total;
  }
  at.log.usage(usageOf(last));
}

/** Codex's token counts in the usage report's names (input without the cached reads). */
export function usageOf(counts: JsonObject): TokenUsage {
  return usageOfCachedInput({
    input: asNumber(counts.input_tokens),
    cached: asNumber(counts.cached_input_tokens) ?? asNumber(counts.cache_read_input_tokens),
    cacheWrites:
      asNumber(counts.cache_creation_input_tokens) ?? asNumber(counts.cache_write_input_tokens),
    output: asNumber(counts.output_tokens),
    reasoning: asNumber(counts.reasoning_output_tokens),
  });
}
