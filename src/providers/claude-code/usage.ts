import type { JsonObject } from '../../model/pam.js';
import { tokenUsageJson, type TokenUsage } from '../../model/token-usage.js';
import { asNumber } from '../untrusted.js';

/**
 * One API reply's tokens from the `message.usage` of its lines: Claude Code writes a reply as
 * several lines sharing `message.id` (and `requestId`), each repeating the input and cache
 * counts, and the output count growing as the reply streams: the reply's is the highest.
 * Anthropic's `input_tokens` counts no cached reads, as the usage report wants.
 */
export function claudeUsage(usages: readonly JsonObject[]): JsonObject | undefined {
  if (usages.length === 0) return undefined;
  const usage: TokenUsage = {};
  for (const counts of usages) {
    usage.input_tokens ??= asNumber(counts.input_tokens);
    usage.cache_read_tokens ??= asNumber(counts.cache_read_input_tokens);
    usage.cache_creation_tokens ??= asNumber(counts.cache_creation_input_tokens);
    const output = asNumber(counts.output_tokens);
    if (output !== undefined) usage.output_tokens = Math.max(usage.output_tokens ?? 0, output);
  }
  return tokenUsageJson(usage);
}
