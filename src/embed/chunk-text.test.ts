import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkText } from './chunk-text.js';

/** A stand-in tokenizer: one token per word, plus the two special tokens BERT adds. */
const words = (text: string): number => text.split(/\s+/).filter(Boolean).length + 2;

const wordArb = fc.stringMatching(/^[a-zA-Z0-9]{1,12}[.!?,]?$/);
const textArb = fc
  .array(fc.tuple(wordArb, fc.constantFrom(' ', '  ', '\n', ' \n\n')), { maxLength: 400 })
  .map((parts) => parts.map(([word, space]) => word + space).join(''));

describe('chunkText', () => {
  it('keeps a text that fits as one chunk', () => {
    expect(chunkText('a short text', { maxTokens: 10, overlapTokens: 2 }, words)).toEqual([
      { text: 'a short text', start: 0, end: 12, tokens: 5 },
    ]);
  });

  it('covers the text with chunks within maxTokens that overlap as asked', () => {
    fc.assert(
      fc.property(
        textArb,
        fc.integer({ min: 6, max: 60 }),
        fc.integer({ min: 0, max: 30 }),
        (text, maxTokens, asked) => {
          const overlapTokens = Math.min(asked, Math.floor(maxTokens / 2));
          const chunks = chunkText(text, { maxTokens, overlapTokens }, words);
          expect(chunks[0]?.start).toBe(0);
          expect(chunks.at(-1)?.end).toBe(text.length);
          chunks.forEach((chunk, i) => {
            expect(chunk.text).toBe(text.slice(chunk.start, chunk.end));
            expect(words(chunk.text)).toBeLessThanOrEqual(maxTokens);
            expect(chunk.tokens).toBe(text.length === 0 ? 0 : words(chunk.text));
            const next = chunks[i + 1];
            if (!next) return;
            // No gap, and progress: each chunk starts after the previous one started.
            expect(next.start).toBeLessThanOrEqual(chunk.end);
            expect(next.start).toBeGreaterThan(chunk.start);
            const shared = text.slice(next.start, chunk.end);
            expect(words(shared)).toBeLessThanOrEqual(Math.max(overlapTokens, 2));
            if (overlapTokens >= 3) expect(shared.trim().length).toBeGreaterThan(0);
            if (overlapTokens === 0) expect(next.start).toBe(chunk.end);
          });
        },
      ),
      { numRuns: 300 },
    );
  });

  it('cuts after a sentence when one ends in the second half of a chunk', () => {
    const text = 'One two three four five six. Seven eight nine ten eleven twelve thirteen.';
    const [first] = chunkText(text, { maxTokens: 11, overlapTokens: 0 }, words);
    expect(first?.text).toBe('One two three four five six.');
  });

  it('cuts a run with no whitespace, never inside a surrogate pair', () => {
    const text = '😀'.repeat(50);
    const perChar = (t: string): number => Array.from(t).length;
    const chunks = chunkText(text, { maxTokens: 7, overlapTokens: 0 }, perChar);
    expect(chunks.map((chunk) => chunk.text).join('')).toBe(text);
    for (const chunk of chunks) {
      expect(perChar(chunk.text)).toBeLessThanOrEqual(7);
      expect(chunk.text).not.toMatch(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
    }
  });
});
