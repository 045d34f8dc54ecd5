import type { JsonObject } from '../../model/pam.js';
import { asArray, asNumber, asObject, asString, asText } from '../untrusted.js';

/** A message of a task's API history, its content as Anthropic blocks whatever it was written as. */
export interface ApiMessage {
  role: 'user' | 'assistant';
  blocks: JsonObject[];
  ts: number | undefined;
  model: string | undefined;
  /** Cline's per-message tokens (`metrics.tokens`: `prompt` with cached reads in it). */
  tokens: JsonObject | undefined;
  /** Roo Code's condensed history: this message is the summary of those before. */
  summary: boolean;
  /** The message's other fields, kept in `raw_metadata`. */
  raw: JsonObject;
}

const MAPPED = [
  'role',
  'content',
  'ts',
  'modelInfo',
  'metrics',
  'isSummary',
  'type',
  'summary',
  'encrypted_content',
  'reasoning_content',
];

/**
 * The messages of `api_conversation_history.json`: Anthropic's Messages API form (Cline, Kilo
 * Code, Roo Code before 2026) or Roo Code's `{version: 2, messages}` of AI SDK parts
 * (`tool-call`, `tool-result`, `reasoning`, and `tool` messages); a standalone reasoning item
 * (OpenAI's, in either) becomes thinking of the reply after it.
 */
export function apiMessages(value: unknown): ApiMessage[] {
  const list = asArray(value) ?? asArray(asObject(value)?.messages) ?? [];
  const out: ApiMessage[] = [];
  let carried: JsonObject[] = [];
  for (const item of list) {
    const message = asObject(item);
    if (!message) continue;
    const role = asString(message.role);
    if (role === undefined && asString(message.type) === 'reasoning') {
      carried = carried.concat(reasoningBlocks(message));
      continue;
    }
    const blocks = (
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : (asArray(message.content) ?? [])
    ).flatMap((block) => blockOf(block));
    const reasoning = asText(message.reasoning_content);
    if (reasoning !== undefined) blocks.unshift({ type: 'thinking', thinking: reasoning });
    const normalized: ApiMessage = {
      role: role === 'assistant' ? 'assistant' : 'user',
      blocks: role === 'assistant' ? [...carried, ...blocks] : blocks,
      ts: asNumber(message.ts),
      model: asText(asObject(message.modelInfo)?.modelId),
      tokens: asObject(asObject(message.metrics)?.tokens),
      summary: message.isSummary === true,
      raw: Object.fromEntries(Object.entries(message).filter(([key]) => !MAPPED.includes(key))),
    };
    if (role === 'assistant') carried = [];
    // A `tool` message (AI SDK) answers calls: its results go where the person's turn would.
    out.push(normalized);
  }
  return out;
}

function reasoningBlocks(item: JsonObject): JsonObject[] {
  return (asArray(item.summary) ?? []).flatMap((part) => {
    const text = asText(asObject(part)?.text);
    return text !== undefined ? [{ type: 'thinking', thinking: text }] : [];
  });
}

// One content block as an Anthropic block (AI SDK parts translated).
function blockOf(value: unknown): JsonObject[] {
  if (typeof value === 'string') return [{ type: 'text', text: value }];
  const block = asObject(value);
  if (!block) return [];
  switch (asString(block.type)) {
    case 'tool-call':
      return [
        {
          type: 'tool_use',
          id: asText(block.toolCallId) ?? null,
          name: asText(block.toolName) ?? 'tool',
          input: block.input ?? block.args ?? null,
        },
      ];
    case 'tool-result':
      return [
        {
          type: 'tool_result',
          tool_use_id: asText(block.toolCallId) ?? null,
          content: resultText(block.output ?? block.result),
          is_error: errorOf(block.output),
        },
      ];
    case 'reasoning':
      return [{ type: 'thinking', thinking: asString(block.text) ?? '' }];
    default:
      return [block];
  }
}

/** A tool result's content as text: a string, text blocks, or the AI SDK's `{type, value}`. */
export function resultText(output: unknown): string {
  if (typeof output === 'string') return output;
  const object = asObject(output);
  if (object) {
    const value = object.value;
    if (typeof value === 'string') return value;
    if (value !== undefined) return resultText(value);
    const text = asString(object.text);
    if (text !== undefined) return text;
    return JSON.stringify(object);
  }
  const list = asArray(output);
  if (list)
    return list
      .map((item) => resultText(item))
      .filter((t) => t !== '')
      .join('\n');
  return output === undefined || output === null ? '' : JSON.stringify(output);
}

// Roo Code marks a failed tool's output by starting it with `[ERROR]`.
function errorOf(output: unknown): boolean {
  return /^\s*\[ERROR\]/.test(resultText(output));
}
