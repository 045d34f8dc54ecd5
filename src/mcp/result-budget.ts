import type { ToolResult } from './tool-result.js';

/**
 * The default cap on one answer, in bytes: its text and its structured content together, as
 * sent (24 KB, about 6,000 tokens of an agent's context; issue 26 §8).
 */
export const DEFAULT_ANSWER_BYTES = 24 * 1024;

/** The smallest answer budget: room for a page's notes and one cut message. */
export const MIN_ANSWER_BYTES = 4 * 1024;

/** How much one answer may hold, text and structured content together, in bytes. */
export interface ResultBudget {
  /** The budget in KB, as answers say it (one decimal at most). */
  kb: number;
  maxBytes: number;
}

/** A budget of `bytes` (1,024 at least). */
export function resultBudget(bytes: number = DEFAULT_ANSWER_BYTES): ResultBudget {
  if (!Number.isFinite(bytes) || bytes < 1024)
    throw new RangeError(`the answer budget must be 1,024 bytes or more, not ${String(bytes)}`);
  const maxBytes = Math.floor(bytes);
  return { kb: Math.round((maxBytes / 1024) * 10) / 10, maxBytes };
}

/** An answer's size as sent: its text and structured content, serialised as JSON together. */
export function answerBytes(result: ToolResult): number {
  const sent = { content: result.content, structuredContent: result.structuredContent };
  return Buffer.byteLength(JSON.stringify(sent), 'utf8');
}

/** Whether a result's text and structured content together fit the budget. */
export function fits(result: ToolResult, budget: ResultBudget): boolean {
  return answerBytes(result) <= budget.maxBytes;
}

/** A long text cut to `max` characters, marked where it was cut. */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text;
  // Never split a surrogate pair: half an emoji is not valid UTF-8.
  let end = max;
  const code = text.charCodeAt(end - 1);
  if (end > 0 && code >= 0xd800 && code <= 0xdbff) end -= 1;
  return `${text.slice(0, end)}… [cut at ${String(end)} of ${String(text.length)} characters]`;
}

/** Every string inside a value (a Cypher row, nested lists and maps) cut to `max` characters. */
export function clipStrings(value: unknown, max: number): unknown {
  if (typeof value === 'string') return clipText(value, max);
  if (Array.isArray(value)) return value.map((item) => clipStrings(item, max));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, clipStrings(v, max)]),
    );
  return value;
}

/** A page of items as one result, with how many of them it holds and whether one was cut. */
export interface FittedPage {
  result: ToolResult;
  /** How many items (from the first) the result holds. */
  shown: number;
  /** True when items were left out or cut to stay within the budget. */
  truncated: boolean;
}

/**
 * The result for as many of `items` as fit the budget. `render` builds the result for the first
 * items (told whether some were left out or cut, so its text can say so). When even the first
 * item alone is too large, it is shown cut by `shrink` (its long texts shortened to the most
 * characters that fit).
 */
export function fitPage<T>(
  items: readonly T[],
  render: (shown: readonly T[], truncated: boolean) => ToolResult,
  budget: ResultBudget,
  shrink: (item: T, maxChars: number) => T,
): FittedPage {
  const whole = render(items, false);
  if (fits(whole, budget)) return { result: whole, shown: items.length, truncated: false };
  // The largest count that fits: rendering grows with the count, so search it by halves.
  let low = 0;
  let high = items.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(render(items.slice(0, mid), true), budget)) low = mid;
    else high = mid - 1;
  }
  if (low > 0) return { result: render(items.slice(0, low), true), shown: low, truncated: true };
  const first = items[0];
  if (first === undefined) return { result: render([], true), shown: 0, truncated: true };
  return {
    result: shrunk((keep) => render([shrink(first, keep)], true), budget),
    shown: 1,
    truncated: true,
  };
}

// The result of the longest cut that fits: halving the length kept until it does, then a
// search by halves between that and the length that did not, so little of the budget is lost.
function shrunk(renderCut: (keep: number) => ToolResult, budget: ResultBudget): ToolResult {
  let high = budget.maxBytes;
  let low = Math.floor(high / 2);
  while (low > 0 && !fits(renderCut(low), budget)) {
    high = low;
    low = Math.floor(low / 2);
  }
  while (high - low > 64) {
    const mid = Math.floor((low + high) / 2);
    if (fits(renderCut(mid), budget)) low = mid;
    else high = mid;
  }
  return renderCut(low);
}
