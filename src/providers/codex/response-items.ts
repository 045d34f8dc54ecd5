import type { Attachment, JsonObject, ToolCall } from '../../model/pam.js';
import type { AgentLog } from '../agent-log.js';
import type { ConversionContext } from '../provider.js';
import { contextKindOf } from '../session-context.js';
import { asArray, asObject, asString, asText, without } from '../untrusted.js';

/** Where a response item is read: the session so far and the turn it belongs to. */
export interface ItemAt {
  log: AgentLog;
  context: ConversionContext;
  time: string | undefined;
  model: string | null;
  line: number;
  /** The texts of the items read, by role, to find an event that says the same again. */
  said: Said;
  /** Items of types chatgraph does not map, kept in the conversation's `raw_metadata`. */
  unknown: JsonObject[];
}

/**
 * Texts a rollout wrote as response items, counted, so the events repeating them are dropped.
 * An event may say less than its item: the IDE extension wraps the person's request in its
 * context (`## My request for Codex:`), and the event holds the request alone.
 */
export class Said {
  private readonly counts = new Map<string, number>();
  /** The items' texts by role, in order, for an event that says only part of one. */
  private readonly texts = new Map<string, string[]>();

  /** Notes the texts of a response item: a message's (by its role), a reasoning item's. */
  noteItem(item: JsonObject): void {
    const type = asString(item.type);
    if (type === 'message') {
      const role = asString(item.role) === 'assistant' ? 'assistant' : 'user';
      this.note(role, contentOf(item.content).text);
    } else if (type === 'reasoning')
      for (const text of reasoningTexts(item)) this.note('reasoning', text);
  }

  /** Notes a text the rollout wrote as an item (of a role: `user`, `assistant`, `reasoning`). */
  note(role: string, text: string): void {
    const normal = normalize(text);
    const key = `${role}\u0000${normal}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    const list = this.texts.get(role) ?? [];
    list.push(normal);
    this.texts.set(role, list);
  }

  /** Whether an event's text was written as an item too (each item answers one event). */
  take(role: string, text: string): boolean {
    const normal = normalize(text);
    const list = this.texts.get(role) ?? [];
    const key = `${role}\u0000${normal}`;
    const n = this.counts.get(key) ?? 0;
    const at =
      n > 0
        ? list.indexOf(normal)
        : normal.length >= 16
          ? list.findIndex((t) => t.includes(normal))
          : -1;
    if (at === -1) return false;
    const taken = list[at] ?? '';
    list.splice(at, 1);
    const takenKey = `${role}\u0000${taken}`;
    this.counts.set(takenKey, (this.counts.get(takenKey) ?? 1) - 1);
    return true;
  }
}

function normalize(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The text of a message's content items (`input_text`, `output_text`), and its images. */
export function contentOf(content: unknown): { text: string; images: Attachment[] } {
  if (typeof content === 'string') return { text: content, images: [] };
  const texts: string[] = [];
  const images: Attachment[] = [];
  for (const item of asArray(content) ?? []) {
    const part = asObject(item);
    const type = asString(part?.type);
    const text = asString(part?.text);
    if (text !== undefined && type !== 'input_image') texts.push(text);
    else if (type === 'input_image') images.push(imageOf(asString(part?.image_url)));
  }
  return { text: texts.join('\n\n'), images };
}

function imageOf(url: string | undefined): Attachment {
  const mime = /^data:([^;,]+)/.exec(url ?? '')?.[1] ?? null;
  const remote = url !== undefined && /^https?:/.test(url) ? url : null;
  return {
    type: 'image',
    name: null,
    mime_type: mime,
    size_bytes: null,
    ref: remote,
    provider_id: null,
  };
}

/** Reads one response item (a rollout line's payload, or a legacy line) into the session. */
export function readResponseItem(item: JsonObject, at: ItemAt): void {
  const type = asString(item.type);
  switch (type) {
    case 'message': {
      message(item, at);
      return;
    }
    case 'reasoning': {
      reasoning(item, at);
      return;
    }
    case 'function_call':
    case 'custom_tool_call':
    case 'local_shell_call':
    case 'tool_search_call': {
      toolCall(item, at);
      return;
    }
    case 'function_call_output':
    case 'custom_tool_call_output':
    case 'tool_search_output': {
      toolOutput(item, at);
      return;
    }
    case 'web_search_call': {
      webSearch(item, at);
      return;
    }
    case 'image_generation_call': {
      imageGeneration(item, at);
      return;
    }
    // Encrypted summaries of a compacted history, and the undo snapshots: nothing to read.
    case 'compaction':
    case 'compaction_summary':
    case 'ghost_snapshot':
      return;
    default:
      at.unknown.push(item);
      at.context.report({
        level: 'info',
        code: 'unknown-entry-type',
        message: `response item type "${type ?? 'without type'}" is not mapped; it is kept in raw_metadata.unknown_items`,
        record: `line ${at.line}`,
      });
  }
}

function message(item: JsonObject, at: ItemAt): void {
  const role = asString(item.role) ?? 'user';
  const { text, images } = contentOf(item.content);
  const raw: JsonObject = without(item, ['type', 'role', 'content', 'id']);
  const id = asText(item.id);
  if (role === 'assistant') {
    at.log.add({
      role: 'assistant',
      text,
      time: at.time,
      model: at.model,
      raw,
      id,
      attachments: images,
    });
    return;
  }
  if (role === 'developer' || role === 'system') {
    at.log.contextTurn(contextKindOf(text) ?? 'instructions', {
      role: 'system',
      text,
      time: at.time,
      raw,
      id,
    });
    return;
  }
  const kind = contextKindOf(text);
  if (kind !== undefined)
    at.log.contextTurn(kind, { role: 'user', text, time: at.time, raw, id, attachments: images });
  else at.log.add({ role: 'user', text, time: at.time, raw, id, attachments: images });
}

// A reasoning item's readable parts: its summary and, when kept, its full text. The
// encrypted content has no text to keep.
function reasoningTexts(item: JsonObject): string[] {
  const parts = [...(asArray(item.summary) ?? []), ...(asArray(item.content) ?? [])];
  return parts.flatMap((part) => {
    const text = asString(asObject(part)?.text) ?? (typeof part === 'string' ? part : undefined);
    return text ? [text] : [];
  });
}

function reasoning(item: JsonObject, at: ItemAt): void {
  const texts = reasoningTexts(item);
  if (texts.length === 0) return;
  at.log.thought(texts.join('\n\n'), at.time, at.model, { reasoning_id: asText(item.id) ?? null });
}

function toolCall(item: JsonObject, at: ItemAt): void {
  const type = asString(item.type);
  const id = asText(item.call_id) ?? asText(item.id) ?? null;
  let name = asText(item.name) ?? (type === 'local_shell_call' ? 'local_shell' : (type ?? 'tool'));
  const namespace = asText(item.namespace);
  if (namespace !== undefined) name = `${namespace}.${name}`;
  const input =
    type === 'function_call'
      ? parsedArguments(item.arguments)
      : type === 'custom_tool_call'
        ? (asString(item.input) ?? null)
        : (asObject(item.action) ?? asObject(item.arguments) ?? null);
  const call: ToolCall = { id, name, input, output: null };
  at.log.call(call, at.time, at.model);
}

function parsedArguments(value: unknown): JsonObject | string | null {
  if (typeof value !== 'string') return asObject(value) ?? null;
  try {
    return asObject(JSON.parse(value) as unknown) ?? value;
  } catch {
    return value;
  }
}

function toolOutput(item: JsonObject, at: ItemAt): void {
  const id = asText(item.call_id);
  const { text, failed } = outputOf(item.output ?? item.tools);
  at.log.result(id, text, { error: failed, line: at.line });
  // A spawned sub-agent's call answers with the new thread's id: the call STARTED it.
  const call = id !== undefined ? at.log.callOf(id) : undefined;
  const child = call && /spawn/i.test(call.name) ? spawnedThread(text) : undefined;
  if (id !== undefined && child !== undefined) at.log.started(id, child);
}

const THREAD_ID =
  /"(?:agent_id|thread_id|new_thread_id|id)"\s*:\s*"([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})"/i;

function spawnedThread(output: string): string | undefined {
  return THREAD_ID.exec(output)?.[1];
}

/**
 * A tool's output as text: a string (often JSON `{output, metadata: {exit_code}}`, whose
 * `output` is the text), `{content, success}`, or content items. Failed when it says so.
 */
export function outputOf(output: unknown): { text: string; failed: boolean } {
  if (typeof output === 'string') {
    try {
      const parsed = asObject(JSON.parse(output) as unknown);
      const inner = asString(parsed?.output);
      if (parsed && inner !== undefined) {
        const exit = asObject(parsed.metadata)?.exit_code;
        return { text: inner, failed: typeof exit === 'number' && exit !== 0 };
      }
    } catch {
      // Plain text.
    }
    return { text: output, failed: false };
  }
  const object = asObject(output);
  if (object) {
    const content = object.content;
    const text =
      typeof content === 'string' ? content : contentOf(content).text || JSON.stringify(object);
    return { text, failed: object.success === false };
  }
  if (Array.isArray(output)) return { text: contentOf(output).text, failed: false };
  return {
    text: output === undefined || output === null ? '' : JSON.stringify(output),
    failed: false,
  };
}

function webSearch(item: JsonObject, at: ItemAt): void {
  const action = asObject(item.action) ?? null;
  const id = asText(item.id) ?? asText(item.call_id) ?? null;
  at.log.call({ id, name: 'web_search', input: action, output: null }, at.time, at.model);
}

function imageGeneration(item: JsonObject, at: ItemAt): void {
  const id = asText(item.id) ?? null;
  const prompt = asString(item.revised_prompt);
  const call: ToolCall = {
    id,
    name: 'image_generation',
    input: prompt !== undefined ? { prompt } : null,
    output: asString(item.status) ?? null,
  };
  at.log.call(call, at.time, at.model);
}
