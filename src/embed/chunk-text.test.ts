import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkText, tokenizerChunker } from './chunk-text.js';

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

  describe('tokenizerChunker', () => {
    // Word pieces: a word of n letters is ceil(n / 4) tokens, as a WordPiece vocabulary cuts
    // long words; it adds up over words, as real tokenizers do.
    const pieces = (text: string): number =>
      text
        .split(/\s+/)
        .filter(Boolean)
        .reduce((sum, word) => sum + Math.ceil(word.length / 4), 2);

    it('cuts as counting every window whole does, when the tokenizer adds up over words', () => {
      fc.assert(
        fc.property(textArb, fc.integer({ min: 6, max: 60 }), (text, maxTokens) => {
          const options = { maxTokens, overlapTokens: Math.floor(maxTokens / 4) };
          expect(tokenizerChunker(options, pieces)(text)).toEqual(chunkText(text, options, pieces));
        }),
      );
    });

    it('never passes the limit when the tokenizer does not add up over words', () => {
      // Every character a token, spaces between words too: counted word by word, a window
      // looks shorter than it is.
      const characters = (text: string): number => text.trim().length;
      fc.assert(
        fc.property(textArb, fc.integer({ min: 20, max: 80 }), (text, maxTokens) => {
          const options = { maxTokens, overlapTokens: 4 };
          const chunks = tokenizerChunker(options, characters)(text);
          expect(chunks[0]?.start).toBe(0);
          expect(chunks.at(-1)?.end).toBe(text.length);
          for (const chunk of chunks) {
            expect(chunk.tokens).toBe(characters(chunk.text));
            expect(chunk.tokens ?? 0).toBeLessThanOrEqual(maxTokens);
          }
        }),
      );
    });
  });
});
