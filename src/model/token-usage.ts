import { z } from 'zod';
import type { JsonObject } from './pam.js';

const count = z.number().finite().nonnegative();

/**
 * The tokens of one model call, as a coding agent's log records them, in the names the graph's
 * Message properties and the usage report use. `input_tokens` never includes cached reads
 * (Codex counts them inside its input: they are taken out); `output_tokens` includes the
 * reasoning, and `reasoning_tokens` says how much of it was (as OpenAI and Anthropic count; Gemini
 * counts its thoughts apart, and they are added in). A call's total is input, output, cache read
 * and cache creation summed. A field the log does not give is left out, never guessed.
 */
export const TokenUsageSchema = z.object({
  input_tokens: count.optional(),
  output_tokens: count.optional(),
  cache_read_tokens: count.optional(),
  cache_creation_tokens: count.optional(),
  reasoning_tokens: count.optional(),
});

/** One model call's tokens (see `TokenUsageSchema`). */
export type TokenUsage = z.infer<typeof TokenUsageSchema>;

/** The token fields, in the order reports show them. */
export const TOKEN_FIELDS = [
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_creation_tokens',
  'reasoning_tokens',
] as const satisfies readonly (keyof TokenUsage)[];

/** Where a message's usage is kept in the bundle: `message.raw_metadata.token_usage`. */
export const TOKEN_USAGE_KEY = 'token_usage';

/** The usage as a `raw_metadata` value (whole numbers), or undefined when the log gave none. */
export function tokenUsageJson(usage: TokenUsage): JsonObject | undefined {
  const out: JsonObject = {};
  for (const field of TOKEN_FIELDS) {
    const value = usage[field];
    if (value !== undefined && Number.isFinite(value) && value >= 0) out[field] = Math.round(value);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** A message's usage read back from its `raw_metadata`, or undefined when it has none. */
export function tokenUsageOf(raw: Readonly<Record<string, unknown>>): TokenUsage | undefined {
  const usage = raw[TOKEN_USAGE_KEY];
  // Most messages have none: a failed safeParse builds its issues (6% of an import's worker).
  if (usage === undefined) return undefined;
  const parsed = TokenUsageSchema.safeParse(usage);
  if (!parsed.success) return undefined;
  return Object.keys(parsed.data).length > 0 ? parsed.data : undefined;
}

/**
 * Where the API response a message's usage came from is named, when the log names it (Claude
 * Code: `message.id` and `requestId`): a session that copies another's lines (a resumed one)
 * holds the same response again, and it is counted once.
 */
export const RESPONSE_ID_KEY = 'response_id';

const ResponseIdSchema = z.object({ [RESPONSE_ID_KEY]: z.string().min(1).optional() });

/** The token usage as a `raw_metadata` value with the response it came from, when known. */
export function tokenUsageWithResponse(
  usage: JsonObject | undefined,
  responseId: string | undefined,
): JsonObject | undefined {
  if (!usage) return undefined;
  return responseId !== undefined && responseId !== ''
    ? { ...usage, [RESPONSE_ID_KEY]: responseId }
    : usage;
}

/** What the graph keeps of a message's usage as Message properties. */
export type TokenProperties = Partial<Record<(typeof TOKEN_FIELDS)[number], number>> & {
  response_id?: string;
};

/**
 * A message's usage as Message properties: whole counts by field (only those given), and the
 * response it came from when the log names it.
 */
export function tokenCounts(raw: Readonly<Record<string, unknown>>): TokenProperties {
  const usage = tokenUsageOf(raw);
  const counts: TokenProperties = {};
  if (!usage) return counts;
  for (const field of TOKEN_FIELDS) {
    const value = usage[field];
    if (value !== undefined) counts[field] = Math.round(value);
  }
  const response = ResponseIdSchema.safeParse(raw[TOKEN_USAGE_KEY]);
  if (response.success && response.data.response_id !== undefined)
    counts.response_id = response.data.response_id;
  return counts;
}

/** A model call's counts as an agent's log names them (any may be missing). */
export interface CallCounts {
  /** Input tokens, the cached reads counted inside them (OpenAI's and Gemini's way). */
  input?: number | undefined;
  cached?: number | undefined;
  cacheWrites?: number | undefined;
  output?: number | undefined;
  reasoning?: number | undefined;
}

/**
 * The usage of counts whose input includes the cached reads (OpenAI's `input_tokens`,
 * Gemini's `promptTokenCount`): the cached reads are taken out of `input_tokens`.
 */
export function usageOfCachedInput(counts: CallCounts): TokenUsage {
  const usage: TokenUsage = {};
  const { input, cached, cacheWrites, output, reasoning } = counts;
  if (input !== undefined) usage.input_tokens = Math.max(0, input - (cached ?? 0));
  if (output !== undefined) usage.output_tokens = output;
  if (cached !== undefined) usage.cache_read_tokens = cached;
  if (cacheWrites !== undefined) usage.cache_creation_tokens = cacheWrites;
  if (reasoning !== undefined) usage.reasoning_tokens = reasoning;
  return usage;
}
