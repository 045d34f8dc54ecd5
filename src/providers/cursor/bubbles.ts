import type { DraftMessage } from '../../model/draft.js';
import type { Attachment, JsonObject, ToolCall } from '../../model/pam.js';
import { thoughtDrafts } from '../../model/thought-drafts.js';
import { toTimestamp } from '../../model/time.js';
import { tokenUsageJson } from '../../model/token-usage.js';
import { asArray, asNumber, asObject, asString, asText } from '../untrusted.js';

/** What turning bubbles into drafts carries from one bubble to the next. */
export interface BubbleChain {
  drafts: DraftMessage[];
  previous: string | null;
  /** The composer's model, for assistant bubbles that do not name theirs. */
  model: string | null;
  /** The first working folder a bubble names. */
  cwd: string | undefined;
}

/**
 * Adds one bubble (a Cursor message) as drafts: its thinking as thoughts, then the message
 * with its text, its tool call and result (Cursor keeps both on the bubble that made the
 * call), the files its context attached, its model and its token count. Bubble types: 1 (or
 * `user`) is the person, 2 (or `ai`) the assistant.
 */
export function addBubble(chain: BubbleChain, bubble: JsonObject, key: string): void {
  const type = bubble.type;
  const user = type === 1 || type === 'user';
  const createdAt =
    toTimestamp(bubble.createdAt) ??
    toTimestamp(asObject(bubble.timingInfo)?.clientStartTime) ??
    toTimestamp(bubble.timestamp);
  const modelInfo = asObject(bubble.modelInfo);
  const model = user
    ? null
    : (asText(modelInfo?.modelName) ?? asText(bubble.modelType) ?? chain.model);
  const raw: JsonObject = {};
  const thinking = asObject(bubble.thinking);
  const thought = asText(thinking?.text) ?? asText(bubble.thinking);
  const thoughts = thought ? [{ text: thought, createdAt, raw: {} }] : [];
  const chained = thoughtDrafts(key, chain.previous, thoughts, model);
  const calls: ToolCall[] = [];
  const tool = asObject(bubble.toolFormerData);
  if (tool && (asText(tool.name) !== undefined || tool.toolCallId !== undefined)) {
    const call = toolCall(tool, key);
    calls.push(call);
    const status = asString(tool.status) ?? asString(asObject(tool.additionalData)?.status);
    if ((status === 'error' || asText(tool.error) !== undefined) && call.id !== null)
      raw.tool_errors = [call.id];
  }
  const usage = usageOf(asObject(bubble.tokenCount));
  if (usage) raw.token_usage = usage;
  const codeBlocks = asArray(bubble.codeBlocks)?.length ?? 0;
  if (codeBlocks > 0) raw.code_blocks = codeBlocks;
  for (const field of ['bubbleId', 'serverBubbleId', 'capabilityType', 'isAgentic', 'unifiedMode'])
    if (bubble[field] !== undefined) raw[field] = bubble[field];
  chain.cwd ??= workspaceOf(bubble);
  const text =
    asText(bubble.text) ??
    asText(bubble.rawText) ??
    asText(bubble.content) ??
    richText(bubble.richText) ??
    '';
  const draft: DraftMessage = {
    key,
    parentKey: chained.replyParent,
    provider_message_id: asText(bubble.bubbleId) ?? key,
    role: user ? 'user' : 'assistant',
    content: { type: 'text', text },
    createdAt,
    model,
    is_thought: false,
    attachments: user ? contextFiles(bubble) : [],
    citations: [],
    tool_calls: calls,
    raw_metadata: raw,
  };
  for (const item of chained.drafts) chain.drafts.push(item);
  chain.previous = chained.replyParent;
  // A bubble of thinking alone (Cursor writes one before the reply) is its thought, no more.
  if (text === '' && calls.length === 0 && thoughts.length > 0 && !raw.token_usage) return;
  chain.drafts.push(draft);
  chain.previous = key;
}

function toolCall(tool: JsonObject, key: string): ToolCall {
  const input = parsedJson(tool.rawArgs) ?? parsedJson(tool.params) ?? null;
  const result = tool.result;
  const output =
    typeof result === 'string'
      ? result
      : result === undefined || result === null
        ? null
        : JSON.stringify(result);
  return {
    id: asText(tool.toolCallId) ?? `${key}#tool`,
    name: asText(tool.name) ?? `tool-${String(asNumber(tool.tool) ?? 'unknown')}`,
    input,
    output:
      asText(tool.error) !== undefined
        ? `${output ?? ''}${output ? '\n' : ''}${String(tool.error)}`
        : output,
  };
}

// Cursor keeps a call's arguments as JSON text: an object, or the text itself when it is not one.
function parsedJson(value: unknown): JsonObject | string | undefined {
  if (typeof value !== 'string' || value === '') return asObject(value);
  try {
    return asObject(JSON.parse(value) as unknown) ?? value;
  } catch {
    return value;
  }
}

// Cursor's tokenCount is all zeros when it kept none.
function usageOf(count: JsonObject | undefined): JsonObject | undefined {
  const input = asNumber(count?.inputTokens);
  const output = asNumber(count?.outputTokens);
  if (!input && !output) return undefined;
  return tokenUsageJson({
    ...(input !== undefined ? { input_tokens: input } : {}),
    ...(output !== undefined ? { output_tokens: output } : {}),
  });
}

function workspaceOf(bubble: JsonObject): string | undefined {
  const dir = asText(bubble.workspaceProjectDir);
  if (dir) return dir;
  for (const uri of asArray(bubble.workspaceUris) ?? []) {
    const text = asText(uri);
    if (text?.startsWith('file://') === true) return decodeURIComponent(text.slice(7));
  }
  return undefined;
}

// The files a person attached to a message (selections, whole files), as named attachments.
function contextFiles(bubble: JsonObject): Attachment[] {
  const context = asObject(bubble.context);
  const paths = new Set<string>();
  for (const selection of [
    ...(asArray(context?.fileSelections) ?? []),
    ...(asArray(context?.selections) ?? []),
  ]) {
    const uri = asObject(asObject(selection)?.uri);
    const path = asText(uri?.fsPath) ?? asText(uri?.path);
    if (path) paths.add(path);
  }
  for (const file of asArray(bubble.relevantFiles) ?? []) {
    const path = asText(file) ?? asText(asObject(file)?.path);
    if (path) paths.add(path);
  }
  return [...paths].map((path) => ({
    type: 'file',
    name: path,
    mime_type: null,
    size_bytes: null,
    ref: null,
    provider_id: null,
  }));
}

// The editor's copy of a person's message (Lexical's state as JSON text): its text nodes, a
// paragraph a line, for a bubble whose `text` is empty.
function richText(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  let state: unknown;
  try {
    state = JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
  const lines: string[] = [];
  const walk = (node: unknown, depth: number): string => {
    const object = asObject(node);
    if (!object || depth > 50) return '';
    const own = asString(object.text) ?? '';
    const children = (asArray(object.children) ?? []).map((child) => walk(child, depth + 1));
    return own + children.join(asString(object.type) === 'root' ? '\n' : '');
  };
  const text = walk(asObject(state)?.root, 0);
  if (text.trim() !== '') lines.push(text);
  return lines.length > 0 ? lines.join('\n') : undefined;
}
