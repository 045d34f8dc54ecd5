import type { Attachment, Citation, JsonObject, ToolCall } from '../model/pam.js';
import type { ConversionContext } from './provider.js';
import { asAbsoluteUrl, asArray, asObject, asString, asText, without } from './untrusted.js';

/** A thinking block: its text (none when redacted) and its other fields. */
export interface AnthropicThought {
  /** `thinking`, or `redacted_thinking` (encrypted: no text, its `data` kept in `raw`). */
  block: 'thinking' | 'redacted_thinking';
  text: string;
  raw: JsonObject;
}

/** What a message's Anthropic content blocks hold, sorted by what PAM does with each. */
export interface AnthropicBlocks {
  texts: string[];
  citations: Citation[];
  thoughts: AnthropicThought[];
  toolCalls: ToolCall[];
  /** Fields of tool_use blocks besides type, id, name and input, by call id. */
  toolUseExtras: JsonObject[];
  /** tool_result blocks, to pair with their calls once every message is read. */
  results: JsonObject[];
  /** Inline images (base64 in the log): kept as image attachments without a file. */
  images: Attachment[];
  unknownBlocks: JsonObject[];
  /** Context the app put into the turn (Claude.ai's `injected_prompt_block`: a memory snapshot, a date note), not typed by the person. */
  injected: JsonObject[];
}

/**
 * Reads the content blocks of the Anthropic Messages API, as both Claude.ai's export and Claude
 * Code's session logs carry them: one transform, so the two formats cannot drift apart. Each
 * tool_use is registered in `calls` (by id) for its result to find; a block of another type is
 * kept, and reported once per block for `record`.
 */
export function readAnthropicBlocks(
  blocks: readonly unknown[],
  calls: Map<string, ToolCall>,
  context: Pick<ConversionContext, 'report'>,
  record: string,
): AnthropicBlocks {
  const out: AnthropicBlocks = {
    texts: [],
    citations: [],
    thoughts: [],
    toolCalls: [],
    toolUseExtras: [],
    results: [],
    images: [],
    unknownBlocks: [],
    injected: [],
  };
  for (const entry of blocks) {
    const block = asObject(entry);
    if (!block) continue;
    const type = asString(block.type);
    if (type === 'text') {
      const text = asString(block.text);
      if (text) out.texts.push(text);
      for (const c of asArray(block.citations) ?? []) out.citations.push(...blockCitation(c));
    } else if (type === 'thinking' || type === 'redacted_thinking') {
      out.thoughts.push({
        block: type,
        text: asString(block.thinking) ?? '',
        raw: without(block, ['type', 'thinking']),
      });
    } else if (type === 'tool_use') readToolUse(block, calls, out);
    else if (type === 'tool_result') out.results.push(block);
    else if (type === 'image') out.images.push(imageOf(block));
    else if (type === 'voice_note') {
      const text = [asString(block.title), asString(block.text)].filter((s) => !!s).join('\n');
      if (text) out.texts.push(text);
    } else if (type === 'injected_prompt_block') {
      // 2026: kept as the turn's context, out of its text (the person did not write it).
      out.injected.push(without(block, ['type']));
    } else {
      out.unknownBlocks.push(block);
      context.report({
        level: 'info',
        code: 'unknown-block-type',
        message: `content block type "${type ?? 'without type'}" is not mapped; it is kept in raw_metadata.unknown_blocks`,
        record,
      });
    }
  }
  return out;
}

function readToolUse(block: JsonObject, calls: Map<string, ToolCall>, out: AnthropicBlocks): void {
  const id = asText(block.id) ?? null;
  const input = asObject(block.input) ?? asString(block.input) ?? null;
  const call: ToolCall = { id, name: asText(block.name) ?? 'unknown', input, output: null };
  out.toolCalls.push(call);
  if (id !== null) calls.set(id, call);
  const extras = without(block, ['type', 'id', 'name', 'input']);
  if (Object.keys(extras).length > 0) out.toolUseExtras.push({ id, ...extras });
}

function imageOf(block: JsonObject): Attachment {
  return {
    type: 'image',
    name: null,
    mime_type: asText(asObject(block.source)?.media_type) ?? null,
    size_bytes: null,
    ref: null,
    provider_id: null,
  };
}

function blockCitation(value: unknown): Citation[] {
  const citation = asObject(value);
  if (!citation) return [];
  const details = asObject(citation.details) ?? {};
  const url = asAbsoluteUrl(details.url ?? citation.url);
  const title = asText(citation.title) ?? asText(details.title) ?? null;
  if (url === null && title === null) return [];
  return [{ title, url, snippet: asText(citation.text) ?? null }];
}
