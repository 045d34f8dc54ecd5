import type { Attachment, JsonObject } from '../model/pam.js';
import { toTimestamp } from '../model/time.js';
import { usageOfCachedInput, type TokenUsage } from '../model/token-usage.js';
import type { AgentLog } from './agent-log.js';
import type { LogLine } from './log-lines.js';
import type { ConversionContext } from './provider.js';
import { contextKindOf } from './session-context.js';
import { asArray, asNumber, asObject, asString, asText, without } from './untrusted.js';

/**
 * Gemini CLI's chat records (`~/.gemini/tmp/<project>/chats/`), which Qwen Code's first
 * versions wrote too: one JSON document (`session-….json`, before 2026) or, since, JSON Lines
 * of a metadata line, message records, `{"$set": …}` patches and `{"$rewindTo": id}` marks.
 */
export interface ChatRecords {
  /** The session's metadata (`sessionId`, `projectHash`, `startTime`, `summary`, `kind`…), patched. */
  metadata: JsonObject;
  /** Each message once, in the order first written; a record written again replaces its copy. */
  messages: JsonObject[];
  /** Each message's parent id: the one before it, or, after a rewind, the one it went back to. */
  parents: Map<string, string | null>;
  /** Messages a rewind took back (kept as a branch) and messages a checkpoint left out. */
  rewound: number;
}

/** Reads the JSON Lines generation: patches applied, records replaced by id, rewinds as branches. */
export function chatRecordsOfLines(
  lines: readonly LogLine[],
  context: ConversionContext,
): ChatRecords {
  const records: ChatRecords = { metadata: {}, messages: [], parents: new Map(), rewound: 0 };
  const byId = new Map<string, number>();
  let chain: string[] = [];
  const put = (message: JsonObject, id: string): void => {
    const at = byId.get(id);
    if (at !== undefined) {
      records.messages[at] = message;
      return;
    }
    byId.set(id, records.messages.length);
    records.messages.push(message);
    records.parents.set(id, chain.at(-1) ?? null);
    chain.push(id);
  };
  for (const { line, entry } of lines) {
    if (!entry) continue;
    const rewind = asText(entry.$rewindTo);
    const set = asObject(entry.$set);
    const id = asText(entry.id);
    if (rewind !== undefined) {
      // A rewind takes the conversation back to before that message: what follows is a branch.
      const at = chain.indexOf(rewind);
      records.rewound += at === -1 ? chain.length : chain.length - at;
      chain = at === -1 ? [] : chain.slice(0, at);
    } else if (set) {
      const { messages, ...rest } = set;
      Object.assign(records.metadata, rest);
      const list = asArray(messages);
      if (list) chain = checkpoint(list, put, records);
    } else if (
      id !== undefined &&
      (asText(entry.type) !== undefined || entry.content !== undefined)
    )
      put(entry, id);
    else if (asText(entry.sessionId) !== undefined) {
      const { messages, ...rest } = entry;
      Object.assign(records.metadata, rest);
      for (const message of asArray(messages) ?? []) {
        const object = asObject(message);
        const messageId = asText(object?.id);
        if (object && messageId !== undefined) put(object, messageId);
      }
    } else
      context.report({
        level: 'info',
        code: 'unknown-entry-type',
        message: 'a line that is no message, patch or rewind is not mapped; skipped',
        record: `line ${line}`,
      });
  }
  return records;
}

// A `$set` of the whole message list: its messages kept or replaced, and the chain it names
// made the current one (messages it leaves out stay, as what was said).
function checkpoint(
  list: readonly unknown[],
  put: (message: JsonObject, id: string) => void,
  records: ChatRecords,
): string[] {
  const chain: string[] = [];
  for (const item of list) {
    const message = asObject(item);
    const id = asText(message?.id);
    if (!message || id === undefined) continue;
    put(message, id);
    chain.push(id);
  }
  records.rewound += Math.max(0, records.messages.length - chain.length);
  return chain;
}

/** Reads the JSON generation: one conversation record with its messages. */
export function chatRecordsOfDocument(document: JsonObject): ChatRecords {
  const { messages, ...metadata } = document;
  const records: ChatRecords = { metadata, messages: [], parents: new Map(), rewound: 0 };
  let previous: string | null = null;
  for (const item of asArray(messages) ?? []) {
    const message = asObject(item);
    const id = asText(message?.id);
    if (!message || id === undefined || records.parents.has(id)) continue;
    records.messages.push(message);
    records.parents.set(id, previous);
    previous = id;
  }
  return records;
}

/** The text of Gemini API parts (a string, one part or a list), and the files they carry. */
export function partsOf(value: unknown): { text: string; thoughts: string[]; files: Attachment[] } {
  const out = { text: '', thoughts: [] as string[], files: [] as Attachment[] };
  const texts: string[] = [];
  const parts =
    typeof value === 'string' ? [value] : (asArray(value) ?? (value === undefined ? [] : [value]));
  for (const item of parts) {
    if (typeof item === 'string') {
      texts.push(item);
      continue;
    }
    const part = asObject(item);
    const text = asString(part?.text);
    if (text !== undefined) {
      if (part?.thought === true) out.thoughts.push(text);
      else texts.push(text);
    }
    const data = asObject(part?.inlineData) ?? asObject(part?.fileData);
    if (data)
      out.files.push({
        type: /^image\//.test(asString(data.mimeType) ?? '') ? 'image' : 'file',
        name: asText(data.displayName) ?? null,
        mime_type: asText(data.mimeType) ?? null,
        size_bytes: null,
        ref: null,
        provider_id: asText(data.fileUri) ?? null,
      });
  }
  out.text = texts.join('\n');
  return out;
}

/** How a reader of chat records names the model's messages and where its sub-agents live. */
export interface RecordsAt {
  log: AgentLog;
  context: ConversionContext;
  /** The record types of the model's messages (`gemini`; `qwen` in Qwen Code's first files). */
  assistantTypes: readonly string[];
}

/** Drafts the messages of chat records: thoughts, replies, tool calls with results, tokens. */
export function draftChatRecords(records: ChatRecords, at: RecordsAt): void {
  // A record's children hang from the last message it became (a prompt's expanded text, a reply).
  const tail = new Map<string, string>();
  for (const message of records.messages) {
    const id = asText(message.id) ?? '';
    const parentId = records.parents.get(id) ?? null;
    const parent = parentId === null ? null : (tail.get(parentId) ?? parentId);
    const type = asString(message.type) ?? '';
    const time = toTimestamp(message.timestamp);
    const raw = without(message, [
      'id',
      'type',
      'content',
      'displayContent',
      'timestamp',
      'toolCalls',
      'thoughts',
      'tokens',
      'model',
    ]);
    if (type === 'user') userRecord(message, { id, parent, time, raw }, at);
    else if (at.assistantTypes.includes(type)) modelRecord(message, { id, parent, time, raw }, at);
    else if (type === 'info' || type === 'error' || type === 'warning') {
      const text = partsOf(message.content).text;
      at.log.contextTurn(type, { role: 'system', text, time, raw, id, parent });
    } else {
      at.context.report({
        level: 'info',
        code: 'unknown-entry-type',
        message: `message type "${type || 'without type'}" is not mapped; kept as a hidden message`,
        record: at.context.record,
      });
      at.log.contextTurn(type || 'unknown', {
        role: 'system',
        text: partsOf(message.content).text,
        time,
        raw,
        id,
        parent,
      });
    }
    const last = at.log.last;
    if (last !== null) tail.set(id, last);
  }
}

interface Place {
  id: string;
  parent: string | null;
  time: string | undefined;
  raw: JsonObject;
}

// The person's turn: what they typed (`displayContent`), and, when the CLI expanded it (files
// an @-mention read in), the expanded text as the turn's context beside it.
function userRecord(message: JsonObject, place: Place, at: RecordsAt): void {
  const content = partsOf(message.content);
  const shown = message.displayContent !== undefined ? partsOf(message.displayContent) : content;
  const kind = contextKindOf(shown.text) ?? (/^\s*[/?]/.test(shown.text) ? 'command' : undefined);
  const turn = {
    role: 'user' as const,
    text: shown.text,
    time: place.time,
    raw: place.raw,
    id: place.id,
    parent: place.parent,
    attachments: content.files,
  };
  if (kind !== undefined) at.log.contextTurn(kind, turn);
  else at.log.add(turn);
  if (shown !== content && content.text !== shown.text && content.text !== '')
    at.log.contextTurn('expanded-prompt', { role: 'user', text: content.text, time: place.time });
}

function modelRecord(message: JsonObject, place: Place, at: RecordsAt): void {
  const model = asText(message.model) ?? null;
  const content = partsOf(message.content);
  let parent = place.parent;
  const thoughts = [
    ...(asArray(message.thoughts) ?? []).flatMap((t) => {
      const thought = asObject(t);
      const text = [asText(thought?.subject), asText(thought?.description)]
        .filter(Boolean)
        .join('\n');
      return text ? [{ text, time: toTimestamp(thought?.timestamp) ?? place.time }] : [];
    }),
    ...content.thoughts.map((text) => ({ text, time: place.time })),
  ];
  for (const thought of thoughts)
    parent = at.log.thought(thought.text, thought.time, model, {}, parent).key;
  const reply = at.log.add({
    role: 'assistant',
    text: content.text,
    time: place.time,
    model,
    raw: place.raw,
    id: place.id,
    parent,
    attachments: content.files,
  });
  for (const item of asArray(message.toolCalls) ?? [])
    toolCall(asObject(item) ?? {}, at, { time: place.time, model });
  const tokens = asObject(message.tokens);
  if (tokens) at.log.usage(tokenUsageOf(tokens), reply);
}

function toolCall(
  call: JsonObject,
  at: RecordsAt,
  when: { time: string | undefined; model: string | null },
): void {
  const id = asText(call.id) ?? null;
  const name = asText(call.name) ?? 'tool';
  at.log.call(
    { id, name, input: asObject(call.args) ?? null, output: null },
    toTimestamp(call.timestamp) ?? when.time,
    when.model,
  );
  const output = resultText(call.result, call.resultDisplay);
  const failed = asString(call.status) === 'error';
  if (id !== null && (output !== undefined || failed))
    at.log.result(id, output ?? '', { error: failed });
  const agent = asText(call.agentId);
  if (id !== null && agent !== undefined) at.log.started(id, agent);
}

// A tool's result: the `functionResponse`'s output (or error), else the text the CLI showed.
function resultText(result: unknown, display: unknown): string | undefined {
  const texts: string[] = [];
  for (const item of asArray(result) ?? (result === undefined || result === null ? [] : [result])) {
    const part = asObject(item);
    const response = asObject(asObject(part?.functionResponse)?.response);
    const text =
      asString(response?.output) ??
      asString(response?.error) ??
      asString(part?.text) ??
      asString(item);
    if (text !== undefined) texts.push(text);
    else if (response) texts.push(JSON.stringify(response));
  }
  if (texts.length > 0) return texts.join('\n');
  if (typeof display === 'string') return display;
  return display !== undefined && display !== null ? JSON.stringify(display) : undefined;
}

/**
 * Gemini's token counts (`tokens`: `input`, `output`, `cached`, `thoughts`, `tool`, `total`; or
 * the API's `usageMetadata`: `promptTokenCount`…) in the usage report's names. The prompt counts
 * cached content inside it, which is taken out; the tool-use prompt is input too. Gemini's
 * `output` (candidates) leaves the thoughts out and bills them as output, while Qwen Code's
 * converted OpenAI counts hold the reasoning inside it: the output is read as the total less
 * the input, which is right for both, so the four fields add up to the log's total.
 */
export function tokenUsageOf(tokens: JsonObject): TokenUsage {
  const prompt = asNumber(tokens.input) ?? asNumber(tokens.promptTokenCount);
  const tool = asNumber(tokens.tool) ?? asNumber(tokens.toolUsePromptTokenCount) ?? 0;
  const candidates = asNumber(tokens.output) ?? asNumber(tokens.candidatesTokenCount);
  const thoughts = asNumber(tokens.thoughts) ?? asNumber(tokens.thoughtsTokenCount);
  const total = asNumber(tokens.total) ?? asNumber(tokens.totalTokenCount);
  const rest = total !== undefined && prompt !== undefined ? total - prompt - tool : undefined;
  const output =
    rest !== undefined && rest >= (candidates ?? 0)
      ? rest
      : candidates !== undefined || thoughts !== undefined
        ? (candidates ?? 0) + (thoughts ?? 0)
        : undefined;
  return usageOfCachedInput({
    input: prompt !== undefined ? prompt + tool : undefined,
    cached: asNumber(tokens.cached) ?? asNumber(tokens.cachedContentTokenCount),
    output,
    reasoning: thoughts,
  });
}
