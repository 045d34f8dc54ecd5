import { describe, expect, it } from 'vitest';
import {
  answerBytes,
  clipStrings,
  clipText,
  fitPage,
  fits,
  resultBudget,
} from './result-budget.js';
import { ok, type ToolResult } from './tool-result.js';

const budget = resultBudget(1024);

function render(shown: readonly string[], truncated: boolean): ToolResult {
  return ok(`${shown.join('\n')}${truncated ? '\ntruncated' : ''}`, { shown, truncated });
}

describe('the result budget', () => {
  it('keeps a page that fits whole, untouched', () => {
    const page = fitPage(['a', 'b'], render, budget, clipText);
    expect(page).toMatchObject({ shown: 2, truncated: false });
  });

  it('keeps the most items that fit, text and structured content alike', () => {
    const items = Array.from({ length: 40 }, (_, i) => String(i).padEnd(100, '.'));
    const page = fitPage(items, render, budget, clipText);
    expect(page.truncated).toBe(true);
    expect(fits(page.result, budget)).toBe(true);
    // One more would not fit.
    expect(fits(render(items.slice(0, page.shown + 1), true), budget)).toBe(false);
  });

  it('cuts one item larger than the budget to the longest that fits, and marks the cut', () => {
    const page = fitPage(['x'.repeat(5000)], render, budget, clipText);
    expect(page).toMatchObject({ shown: 1, truncated: true });
    expect(fits(page.result, budget)).toBe(true);
    const text = page.result.content[0]?.text ?? '';
    expect(text).toMatch(/… \[cut at \d+ of 5000 characters\]/);
    // Little of the budget is lost: past 90% of it is used.
    expect(answerBytes(page.result)).toBeGreaterThan(budget.maxBytes * 0.9);
  });

  it('never splits a surrogate pair, and cuts strings deep in a row', () => {
    expect(clipText('ab😀cd', 3)).toBe('ab… [cut at 2 of 6 characters]');
    expect(clipStrings({ a: ['xxxx', { b: 'yyyy' }], n: 1 }, 2)).toEqual({
      a: ['xx… [cut at 2 of 4 characters]', { b: 'yy… [cut at 2 of 4 characters]' }],
      n: 1,
    });
  });

  it('counts text and structured content together, as sent', () => {
    // Each half fits 1 KB alone; together they do not (the old budget counted each alone).
    const half = ok('x'.repeat(600), { s: 'y'.repeat(600) });
    expect(answerBytes(half)).toBeGreaterThan(1200);
    expect(fits(half, budget)).toBe(false);
    // A newline or a quote is two bytes once sent as JSON.
    expect(answerBytes(ok('\n'.repeat(100), {}))).toBeGreaterThan(200);
  });

  it('refuses a budget under 1,024 bytes', () => {
    expect(() => resultBudget(1000)).toThrow(/1,024 bytes or more/);
  });
});
