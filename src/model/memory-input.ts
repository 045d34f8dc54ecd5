import { IMPORTER } from './version.js';
import { thousands } from './plural.js';
import { contentHash } from './content-hash.js';
import { MEMORY_TYPES } from './memory-type.js';
import type { ExtractionMethod, Memory, MemoryType } from './pam.js';

export { MEMORY_TYPES };

/** What a person or an agent gives to remember something. */
export interface MemoryInput {
  content: string;
  type: MemoryType;
  /** Free words; written as PAM tags (lower case, spaces as hyphens). */
  tags?: readonly string[] | undefined;
  /** 0 to 1: how sure the one remembering is. */
  confidence?: number | undefined;
  /** For type `custom`: what kind (PAM requires it; `note` when not given). */
  customType?: string | undefined;
  summary?: string | undefined;
}

/** Where a memory came from, resolved against the store. */
export interface MemorySource {
  platform: string;
  /** The PAM ids of the conversation and message. */
  conversationRef?: string | undefined;
  messageRef?: string | undefined;
}

/** A memory input that cannot be written, in one sentence. */
export class MemoryInputError extends Error {
  override readonly name = 'MemoryInputError';
}

/** The most characters a memory's tag has, in every shell (a tag is a word, not a text). */
export const MEMORY_TAG_LIMIT = 64;

/** PAM's tag pattern; a tag is lower-cased and its spaces become hyphens first. */
export function toTag(tag: string): string {
  if (tag.length > MEMORY_TAG_LIMIT)
    throw new MemoryInputError(
      `a tag is at most ${String(MEMORY_TAG_LIMIT)} characters, and one has ${thousands(tag.length)} ("${tag.slice(0, 20)}…")`,
    );
  const normal = tag.trim().toLowerCase().replace(/\s+/g, '-');
  if (!/^[a-z0-9][a-z0-9_-]*$/.test(normal))
    throw new MemoryInputError(
      `the tag "${tag}" cannot be written: tags are letters a-z, digits, hyphens and underscores, starting with a letter or digit`,
    );
  return normal;
}

/**
 * The most characters (UTF-16 code units, as JavaScript counts them) a memory's content may
 * have, in every shell: the CLI, the web app, MCP and the library all refuse more with
 * {@link MemoryInputError}.
 */
export const MEMORY_CONTENT_LIMIT = 20_000;

function checked(input: MemoryInput): void {
  if (input.content.trim() === '') throw new MemoryInputError('a memory needs some content');
  if (input.content.length > MEMORY_CONTENT_LIMIT)
    throw new MemoryInputError(
      `a memory is at most ${thousands(MEMORY_CONTENT_LIMIT)} characters and this one has ${thousands(input.content.length)}: keep the gist, and name the conversation it came from`,
    );
  if (!(MEMORY_TYPES as readonly string[]).includes(input.type))
    throw new MemoryInputError(
      `"${input.type}" is not a memory type; the types are ${MEMORY_TYPES.join(', ')}`,
    );
  const c = input.confidence;
  if (c !== undefined && !(Number.isFinite(c) && c >= 0 && c <= 1))
    throw new MemoryInputError(`confidence is a number from 0 to 1, not ${String(c)}`);
}

/** A new active PAM memory, `now` as its creation time (a Pydantic-form timestamp). */
export function newMemory(
  id: string,
  input: MemoryInput,
  source: MemorySource,
  method: ExtractionMethod,
  now: string,
): Memory {
  checked(input);
  const memory: Memory = {
    id,
    type: input.type,
    status: 'active',
    content: input.content.trim(),
    content_hash: contentHash(input.content),
    tags: [...new Set((input.tags ?? []).map(toTag))],
    temporal: { created_at: now },
    provenance: {
      platform: source.platform,
      extraction_method: method,
      extracted_at: now,
      extractor: IMPORTER,
    },
  };
  if (input.type === 'custom') memory.custom_type = input.customType?.trim() || 'note';
  if (input.summary?.trim()) memory.summary = input.summary.trim();
  if (input.confidence !== undefined)
    memory.confidence = { initial: input.confidence, current: input.confidence };
  if (source.conversationRef !== undefined)
    memory.provenance.conversation_ref = source.conversationRef;
  if (source.messageRef !== undefined) memory.provenance.message_ref = source.messageRef;
  return memory;
}
