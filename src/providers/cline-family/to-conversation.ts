import type { Attachment, Conversation, JsonObject } from '../../model/pam.js';
import { AgentLog, logConversation } from '../agent-log.js';
import type { ConversionContext } from '../provider.js';
import { asNumber, asObject, asString, asText } from '../untrusted.js';
import { toolResultText } from '../tool-result-text.js';
import { usageOfCachedInput } from '../../model/token-usage.js';
import { apiMessages, type ApiMessage } from './api-history.js';
import { modelAt, readTaskSide, timeOf, type TaskSide } from './task-side.js';
import { cwdOfDetails, readXmlReply, sortUserBlocks } from './xml-tools.js';

/** Who wrote a task: the provider's PAM name and the assistant's. */
export interface TaskAuthor {
  provider: string;
  assistantName: string;
}

/**
 * Converts one task of Cline, Roo Code or Kilo Code (`tasks/<id>/`: its API history with the
 * UI log, metadata and history item beside it) into a PAM conversation: the person's words
 * (`<task>`, `<feedback>`, `<answer>` unwrapped), each reply with its thinking and tool calls,
 * native ones paired by id (a `tool_result` block) or, as Cline writes them since its native
 * tool calls of 2026, like the XML ones: by order (and name) with the `[tool] Result:` text
 * blocks of the next turn, the app's `<environment_details>` kept as hidden context, times and tokens from the UI
 * log's API requests.
 */
export function toTaskConversation(
  raw: unknown,
  author: TaskAuthor,
  variant: string,
  context: ConversionContext,
): Conversation | undefined {
  const value = asObject(raw) ?? {};
  const side = readTaskSide(asObject(value.side) ?? {});
  for (const name of side.broken)
    context.report({
      level: 'warning',
      code: 'side-file-unreadable',
      message: `${name} beside the task is not JSON; the task is read without it (no times or token counts from it)`,
      record: context.record,
    });
  const messages = apiMessages(value.main);
  const log = new AgentLog(context);
  const state: TaskState = {
    log,
    context,
    side,
    pending: [],
    cwd: side.workspace,
    users: 0,
    replies: 0,
  };
  messages.forEach((message, index) => {
    if (message.role === 'assistant') reply(message, index, state);
    else userTurn(message, state);
  });
  const id = taskId(context);
  const raw_: JsonObject = { task_id: id };
  if (state.cwd !== undefined) raw_.cwd = state.cwd;
  if (side.parentTask !== undefined) raw_.parent_task_id = side.parentTask;
  if (side.files.length > 0) raw_.files_in_context = side.files;
  return logConversation(
    {
      provider: author.provider,
      id,
      format: `${author.provider}/${variant}`,
      createdAt: side.started,
      raw: raw_,
      assistantName: author.assistantName,
    },
    log,
    context,
  );
}

// Tools through which the model speaks to the person, and the input field that holds its words.
const SPEECH: Readonly<Record<string, string>> = {
  attempt_completion: 'result',
  ask_followup_question: 'question',
  plan_mode_respond: 'response',
  act_mode_respond: 'response',
};

interface PendingCall {
  id: string;
  name: string;
}

interface TaskState {
  log: AgentLog;
  context: ConversionContext;
  side: TaskSide;
  /** The tool calls of the last reply, in order, waiting for their results. */
  pending: PendingCall[];
  cwd: string | undefined;
  users: number;
  replies: number;
}

function reply(message: ApiMessage, index: number, state: TaskState): void {
  const { log, side } = state;
  const request = side.requests[state.replies];
  state.replies++;
  const time = timeOf(message.ts) ?? request?.answered ?? request?.time;
  const model = message.model ?? modelAt(side, time);
  const texts: string[] = [];
  for (const block of message.blocks) {
    const type = asString(block.type);
    if (type === 'text') texts.push(asString(block.text) ?? '');
    else if (type === 'thinking') {
      const thinking = asString(block.thinking) ?? '';
      if (thinking !== '') log.thought(thinking, time, model);
    }
  }
  const xml = readXmlReply(texts.join('\n\n'));
  for (const thought of xml.thoughts) log.thought(thought, time, model);
  const uses = message.blocks.filter((b) => asString(b.type) === 'tool_use');
  if (xml.text === '' && uses.length === 0 && xml.calls.length === 0) return;
  // What the model says through a tool (its final answer, a question) is the reply's text too.
  const said = [
    ...xml.calls.map((c) => ({ name: c.name, input: c.input })),
    ...uses.map((u) => ({ name: asText(u.name) ?? '', input: asObject(u.input) ?? {} })),
  ].flatMap(({ name, input }) => {
    const field = SPEECH[name];
    const text = field !== undefined ? asString(input[field]) : undefined;
    return text !== undefined && text.trim() !== '' ? [text.trim()] : [];
  });
  const text = [xml.text, ...said].filter((t) => t !== '').join('\n\n');
  const draft = log.add({ role: 'assistant', text, time, model, raw: message.raw });
  if (message.summary)
    Object.assign(draft.raw_metadata, { hidden: true, context: 'condense-summary' });
  state.pending = [];
  for (const use of uses) {
    const call = log.call(
      {
        id: asText(use.id) ?? null,
        name: asText(use.name) ?? 'tool',
        input: asObject(use.input) ?? asString(use.input) ?? null,
        output: null,
      },
      time,
      model,
    );
    // Cline's native calls of 2026 get their results as `[name] Result:` text, not by id.
    if (call.id !== null) state.pending.push({ id: call.id, name: call.name });
  }
  xml.calls.forEach((call, n) => {
    const id = `xml-${index}-${n}`;
    log.call({ id, name: call.name, input: call.input, output: null }, time, model);
    state.pending.push({ id, name: call.name });
  });
  // Cline's per-message metrics count the cached reads inside `prompt`.
  const tokens = message.tokens;
  const usage = tokens
    ? usageOfCachedInput({
        input: asNumber(tokens.prompt),
        cached: asNumber(tokens.cached),
        output: asNumber(tokens.completion),
      })
    : request?.usage;
  if (usage) log.usage(usage, draft);
}

function userTurn(message: ApiMessage, state: TaskState): void {
  const { log, side } = state;
  const request = side.requests[state.users];
  const time =
    timeOf(message.ts) ?? (state.users === 0 ? (side.started ?? request?.time) : request?.time);
  state.users++;
  const texts: string[] = [];
  const images: Attachment[] = [];
  for (const block of message.blocks) {
    const type = asString(block.type);
    if (type === 'tool_result') {
      const text = toolResultText(block.content);
      const id = asText(block.tool_use_id);
      state.pending = state.pending.filter((call) => call.id !== id);
      log.result(id, text, { error: block.is_error === true });
    } else if (type === 'text') texts.push(asString(block.text) ?? '');
    else if (type === 'image')
      images.push({
        type: 'image',
        name: null,
        mime_type: asText(asObject(block.source)?.media_type) ?? null,
        size_bytes: null,
        ref: null,
        provider_id: null,
      });
  }
  const words: string[] = [];
  const contexts: { kind: string; text: string }[] = [];
  for (const block of sortUserBlocks(texts)) {
    if (block.kind === 'result') {
      const id = nextPending(state, block.tool);
      const failed =
        /^\s*(\[ERROR\]|The user denied this operation|The tool execution failed)/.test(block.text);
      log.result(id, block.text, { error: failed });
    } else if (block.kind === 'context') {
      state.cwd ??= cwdOfDetails(block.text);
      contexts.push({ kind: block.context, text: block.text });
    } else if (block.text.trim() !== '') words.push(block.text);
  }
  state.pending = [];
  if (words.length > 0 || images.length > 0) {
    const draft = log.add({
      role: 'user',
      text: words.join('\n\n'),
      time,
      raw: message.raw,
      attachments: images,
    });
    if (message.summary)
      Object.assign(draft.raw_metadata, { hidden: true, context: 'condense-summary' });
  }
  for (const item of contexts) log.contextTurn(item.kind, { role: 'user', text: item.text, time });
}

/**
 * The call a `[tool] Result:` block answers: the first waiting call of that tool, else the first
 * waiting call (a result's header names the tool, not the call).
 */
function nextPending(state: TaskState, tool: string): string | undefined {
  const at = state.pending.findIndex((call) => call.name === tool);
  const [call] = state.pending.splice(at === -1 ? 0 : at, 1);
  return call?.id;
}

// A task's id: its folder's name (`tasks/<id>/api_conversation_history.json`).
function taskId(context: ConversionContext): string {
  const path = (context.localPath ?? context.file).split(/[\\/]/);
  return path.at(-2) ?? path.at(-1) ?? 'task';
}
