import type { JsonObject } from '../../model/pam.js';
import { tokenUsageJson, type TokenUsage } from '../../model/token-usage.js';
import { asArray, asNumber, asObject, asString } from '../untrusted.js';
import { ModelMetric } from './raw.js';

/**
 * A tool's result as text: the full result the CLI showed (`detailedContent`, diffs whole),
 * else what the model was sent (`content`), else the text of its content blocks; an earlier
 * version's plain string as it is; a failure's message when there is no result.
 */
export function resultText(result: unknown, error: unknown): string {
  const text = resultOf(result);
  if (text !== undefined && text !== '') return text;
  const failure = asString(error) ?? asString(asObject(error)?.message);
  if (failure !== undefined) return failure;
  if (error !== undefined && error !== null) return JSON.stringify(error);
  return text ?? '';
}

function resultOf(result: unknown): string | undefined {
  if (typeof result === 'string') return result;
  const object = asObject(result);
  if (!object) return result === undefined || result === null ? undefined : JSON.stringify(result);
  const detailed = asString(object.detailedContent);
  if (detailed !== undefined && detailed !== '') return detailed;
  const content = asString(object.content);
  if (content !== undefined && content !== '') return content;
  const blocks = (asArray(object.contents) ?? []).flatMap((item) => {
    const text = asString(asObject(item)?.text);
    return text !== undefined ? [text] : [];
  });
  if (blocks.length > 0) return blocks.join('\n');
  return content ?? JSON.stringify(object);
}

/** Copilot's counts of one call or one model: `inputTokens` holds the cache reads and writes. */
export interface CopilotCounts {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  cacheReadTokens?: number | undefined;
  cacheWriteTokens?: number | undefined;
  reasoningTokens?: number | undefined;
}

/** The counts in the usage report's names, the cache reads and writes taken out of the input. */
export function uncachedUsage(counts: CopilotCounts): TokenUsage {
  const usage: TokenUsage = {};
  const { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens, reasoningTokens } = counts;
  if (inputTokens !== undefined)
    usage.input_tokens = Math.max(
      0,
      inputTokens - (cacheReadTokens ?? 0) - (cacheWriteTokens ?? 0),
    );
  if (outputTokens !== undefined) usage.output_tokens = outputTokens;
  if (cacheReadTokens !== undefined) usage.cache_read_tokens = cacheReadTokens;
  if (cacheWriteTokens !== undefined) usage.cache_creation_tokens = cacheWriteTokens;
  if (reasoningTokens !== undefined) usage.reasoning_tokens = reasoningTokens;
  return usage;
}

/**
 * The session's tokens by model, as its last `session.shutdown` sums them (each shutdown of a
 * resumed session counts the legs before it): kept on the conversation, since the log gives a
 * message no more than its output tokens.
 */
export function sessionUsage(shutdown: JsonObject): JsonObject | undefined {
  const metrics = asObject(shutdown.modelMetrics);
  if (!metrics) return undefined;
  const out: JsonObject = {};
  for (const [model, value] of Object.entries(metrics)) {
    const parsed = ModelMetric.safeParse(value);
    if (!parsed.success) continue;
    const usage = tokenUsageJson(uncachedUsage(parsed.data.usage ?? {}));
    if (!usage) continue;
    const requests = asNumber(parsed.data.requests?.count);
    if (requests !== undefined) usage.requests = requests;
    out[model] = usage;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}
