import type { JsonObject } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import type { TokenUsage } from '../../model/token-usage.js';
import { asArray, asNumber, asObject, asString, asText } from '../untrusted.js';

/** The files of a task folder read beside `api_conversation_history.json`. */
export const TASK_SIDE_FILES = [
  'ui_messages.json',
  'task_metadata.json',
  'history_item.json',
] as const;

/** One API request as the task's UI log recorded it: when, and its tokens. */
export interface ApiRequest {
  time: string | undefined;
  /** The time of what the UI showed next (the reply arriving). */
  answered: string | undefined;
  usage: TokenUsage | undefined;
}

/** What the side files tell of a task. */
export interface TaskSide {
  /** When the task was started (the UI's `task` message). */
  started: string | undefined;
  requests: ApiRequest[];
  /** The models the task used, with the time each was first used. */
  models: { time: number; model: string }[];
  /** The working folder (Roo Code's `history_item.json`: `workspace`). */
  workspace: string | undefined;
  parentTask: string | undefined;
  /** Files the task read or edited, as `task_metadata.json` lists them. */
  files: JsonObject[];
  /** Side files that are not JSON, by name (reported; the task is read without them). */
  broken: string[];
}

/**
 * Reads a task's side files (their text, as the reader hands them over): `ui_messages.json`
 * (the UI log: the task's start and each API request with its tokens), `task_metadata.json`
 * (files in context, models used) and Roo Code's `history_item.json` (workspace, parent task).
 */
export function readTaskSide(side: Readonly<Record<string, unknown>>): TaskSide {
  const out: TaskSide = {
    started: undefined,
    requests: [],
    models: [],
    workspace: undefined,
    parentTask: undefined,
    files: [],
    broken: [],
  };
  const parsed = (name: string): unknown => {
    const text = asString(side[name]);
    if (text === undefined) return undefined;
    try {
      return JSON.parse(text) as unknown;
    } catch {
      out.broken.push(name);
      return undefined;
    }
  };
  uiMessages(asArray(parsed('ui_messages.json')) ?? [], out);
  const metadata = asObject(parsed('task_metadata.json'));
  for (const file of asArray(metadata?.files_in_context) ?? []) {
    const object = asObject(file);
    if (object) out.files.push(object);
  }
  for (const use of asArray(metadata?.model_usage) ?? []) {
    const object = asObject(use);
    const model = asText(object?.model_id);
    const time = asNumber(object?.ts);
    if (model !== undefined && time !== undefined) out.models.push({ time, model });
  }
  out.models.sort((a, b) => a.time - b.time);
  const history = asObject(parsed('history_item.json'));
  out.workspace = asText(history?.workspace) ?? asText(history?.cwdOnTaskInitialization);
  out.parentTask = asText(history?.parentTaskId);
  return out;
}

function uiMessages(messages: readonly unknown[], out: TaskSide): void {
  let waiting: ApiRequest | undefined;
  for (const item of messages) {
    const message = asObject(item);
    if (!message) continue;
    const time = timeOf(message.ts);
    const say = asString(message.say);
    if (waiting && waiting.answered === undefined && say !== 'api_req_started')
      waiting.answered = time;
    if (say === 'task' && out.started === undefined) out.started = time;
    if (say === 'api_req_started') {
      waiting = { time, answered: undefined, usage: requestUsage(asString(message.text)) };
      out.requests.push(waiting);
    }
  }
}

// `api_req_started`'s text is JSON: `{request, tokensIn, tokensOut, cacheWrites, cacheReads, cost}`.
function requestUsage(text: string | undefined): TokenUsage | undefined {
  if (text === undefined) return undefined;
  let info: JsonObject | undefined;
  try {
    info = asObject(JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
  if (!info) return undefined;
  const usage: TokenUsage = {};
  const fields = [
    ['tokensIn', 'input_tokens'],
    ['tokensOut', 'output_tokens'],
    ['cacheReads', 'cache_read_tokens'],
    ['cacheWrites', 'cache_creation_tokens'],
  ] as const;
  for (const [from, to] of fields) {
    const value = asNumber(info[from]);
    if (value !== undefined) usage[to] = value;
  }
  return Object.keys(usage).length > 0 ? usage : undefined;
}

/** A Unix time in milliseconds (as Cline writes `ts`) as a PAM timestamp. */
export function timeOf(value: unknown): string | undefined {
  return toTimestamp(asNumber(value));
}

/** The model in use at a time (the last one first used before it). */
export function modelAt(side: TaskSide, time: string | undefined): string | null {
  const at = time === undefined ? Infinity : Date.parse(time);
  let model: string | null = null;
  for (const use of side.models) if (use.time <= at) model = use.model;
  return model ?? side.models[0]?.model ?? null;
}
