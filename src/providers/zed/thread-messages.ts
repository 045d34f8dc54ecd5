import type { JsonObject, ToolCall } from '../../model/pam.js';
import type { Thought } from '../../model/thought-drafts.js';
import { asArray, asObject, asString, asText } from '../untrusted.js';

/** One message of a Zed thread, read from either generation of its JSON. */
export interface ZedMessage {
  role: 'user' | 'assistant';
  texts: string[];
  thoughts: Thought[];
  calls: ToolCall[];
  /** Tool results it carries (by the id of their call), paired once every call is known. */
  results: { id: string; output: string; isError: boolean; sessionId: string | undefined }[];
  /** @-mentioned files and pasted context: kept as attached text. */
  mentions: { name: string; text: string }[];
  images: number;
  raw: JsonObject;
  /** The key of the user message whose request this answers (current form's token usage). */
  usageKey?: string;
  key?: string;
}

/** The messages of a thread in the current form (`DbThread` 0.3.0). */
export function currentMessages(data: JsonObject): ZedMessage[] {
  const out: ZedMessage[] = [];
  let lastUser: string | undefined;
  for (const item of asArray(data.messages) ?? []) {
    if (item === 'Resume') {
      out.push({
        ...emptyMessage('user'),
        texts: ['Continue where you left off'],
        raw: { hidden: true, resume: true },
      });
      continue;
    }
    const object = asObject(item);
    const user = asObject(object?.User);
    const agent = asObject(object?.Agent);
    if (user) {
      const message = emptyMessage('user');
      lastUser = asText(user.id);
      if (lastUser) message.key = lastUser;
      for (const block of asArray(user.content) ?? []) userBlock(message, block);
      out.push(message);
    } else if (agent) {
      const message = emptyMessage('assistant');
      if (lastUser) message.usageKey = lastUser;
      for (const block of asArray(agent.content) ?? []) agentBlock(message, block);
      for (const result of Object.values(asObject(agent.tool_results) ?? {}))
        toolResult(message, result);
      if (agent.reasoning_details !== undefined && agent.reasoning_details !== null)
        message.raw.reasoning_details = agent.reasoning_details;
      out.push(message);
    } else {
      out.push({ ...emptyMessage('user'), raw: { unknown_message: item ?? null, hidden: true } });
    }
  }
  return out;
}

/** A message with nothing in it yet. */
export function emptyMessage(role: 'user' | 'assistant'): ZedMessage {
  return {
    role,
    texts: [],
    thoughts: [],
    calls: [],
    results: [],
    mentions: [],
    images: 0,
    raw: {},
  };
}

function userBlock(message: ZedMessage, block: unknown): void {
  if (typeof block === 'string') {
    message.texts.push(block);
    return;
  }
  const object = asObject(block);
  const text = asString(object?.Text);
  const mention = asObject(object?.Mention);
  if (text !== undefined) message.texts.push(text);
  else if (mention)
    message.mentions.push({
      name: mentionName(asObject(mention.uri)),
      text: asString(mention.content) ?? '',
    });
  else if (object?.Image !== undefined) message.images++;
  else
    message.raw.unknown_content = [...(asArray(message.raw.unknown_content) ?? []), block ?? null];
}

function mentionName(uri: JsonObject | undefined): string {
  const [kind, value] = Object.entries(uri ?? {})[0] ?? ['mention', {}];
  const body = asObject(value);
  return asText(body?.abs_path) ?? asText(body?.name) ?? asText(body?.url) ?? kind;
}

/** Reads one content block of an agent message (current form). */
export function agentBlock(message: ZedMessage, block: unknown): void {
  if (typeof block === 'string') {
    message.texts.push(block);
    return;
  }
  const object = asObject(block);
  const text = asString(object?.Text);
  const thinking = asObject(object?.Thinking);
  const tool = asObject(object?.ToolUse);
  if (text !== undefined) message.texts.push(text);
  else if (thinking)
    message.thoughts.push({ text: asString(thinking.text) ?? '', createdAt: undefined, raw: {} });
  else if (object?.RedactedThinking !== undefined)
    message.raw.redacted_thinking = [
      ...(asArray(message.raw.redacted_thinking) ?? []),
      object.RedactedThinking,
    ];
  else if (tool)
    message.calls.push({
      id: asText(tool.id) ?? null,
      name: asText(tool.name) ?? 'unknown',
      input: asObject(tool.input) ?? asString(tool.raw_input) ?? null,
      output: null,
    });
  else
    message.raw.unknown_content = [...(asArray(message.raw.unknown_content) ?? []), block ?? null];
}

/** Reads one tool result (both forms): its text, and the sub-agent session it names. */
export function toolResult(message: ZedMessage, result: unknown): void {
  const object = asObject(result);
  const id = asText(object?.tool_use_id);
  if (!object || id === undefined) return;
  const output = resultText(object.content);
  const structured = asObject(object.output);
  let sessionId = asText(structured?.session_id);
  // spawn_agent answers the model with {"session_id": …, "output": …} as its text.
  if (sessionId === undefined && output.startsWith('{')) {
    try {
      sessionId = asText(asObject(JSON.parse(output) as unknown)?.session_id);
    } catch {
      sessionId = undefined;
    }
  }
  message.results.push({ id, output, isError: object.is_error === true, sessionId });
}

function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  const object = asObject(content);
  const text = asString(object?.Text) ?? asString(object?.text);
  if (text !== undefined) return text;
  if (Array.isArray(content)) return content.map(resultText).join('\n');
  return object?.Image !== undefined || object?.source !== undefined ? '[image]' : '';
}
