import Database from 'better-sqlite3-multiple-ciphers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TOKENIZER } from './full-text.js';
import { PAIR_STEMS, SEPARATOR_RANGES, messagePairs, pairsOfText } from './word-pairs.js';

/** An FTS5 table tokenized as message_fts, and its tokens read back in order. */
function fts5Tokens(): (text: string) => string[] {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE t USING fts5(content, tokenize='${TOKENIZER}')`);
  db.exec(`CREATE VIRTUAL TABLE v USING fts5vocab(t, instance)`);
  const put = db.prepare(`INSERT INTO t (rowid, content) VALUES (1, ?)`);
  const read = db.prepare(`SELECT term, offset FROM v`);
  return (text) => {
    db.exec(`DELETE FROM t`);
    put.run(text);
    const terms: string[] = [];
    for (const row of read.all() as { term: string; offset: number }[])
      terms[row.offset] = row.term;
    return terms;
  };
}

describe('word pairs', () => {
  it("reads as a separator every character it cuts at, as message_fts's tokenizer does", () => {
    const tokens = fts5Tokens();
    const wrong: string[] = [];
    for (const range of SEPARATOR_RANGES.split(' ')) {
      const [from = 0, to = from] = range.split('-').map((code) => parseInt(code, 16));
      for (let code = from; code <= to; code++) {
        const c = String.fromCodePoint(code);
        const text = `the${c}and ${c}of the${c}`;
        if (pairsOfText(text) === undefined) wrong.push(`${code.toString(16)}: not cut here`);
        else if (tokens(text).join(' ') !== 'the and of the') wrong.push(code.toString(16));
      }
    }
    expect(wrong).toEqual([]);
  });

  it('finds the pairs message_fts would, in any text, each as many times as it is there', () => {
    const tokens = fts5Tokens();
    const pairsOf = messagePairs(new Database(':memory:'));
    const words = fc.constantFrom(
      'the',
      'The',
      'THE',
      'and',
      'thé',
      'of',
      'Of',
      'because',
      'becaus',
      'ands',
      'thes',
      'is',
      'it',
      'sourdough',
      'Sourdoughs',
      'running',
      'x2',
      'à',
      'de',
      'la',
      'und',
      'y',
      'e\u0301t',
      'a'.repeat(70),
    );
    const gaps = fc.constantFrom(' ', ', ', '—', '’', ' 🙂 ', '\u200d', '-', '\n', 'é', '_', '');
    fc.assert(
      fc.property(fc.array(fc.tuple(words, gaps), { maxLength: 12 }), (parts) => {
        const text = parts.map(([w, g]) => w + g).join('');
        const terms = tokens(text);
        const counts = new Map<string, number>();
        for (let i = 0; i + 1 < terms.length; i++) {
          const [a = '', b = ''] = [terms[i], terms[i + 1]];
          if ((PAIR_STEMS.has(a) || PAIR_STEMS.has(b)) && a.length <= 64 && b.length <= 64)
            counts.set(`${a}_${b}`, (counts.get(`${a}_${b}`) ?? 0) + 1);
        }
        const expected = [...counts].flatMap(([pair, n]) => [
          pair,
          ...Array.from({ length: n - 1 }, (_, i) => `${pair}_${i + 2}`),
        ]);
        const written = pairsOf(text);
        expect(written === '' ? [] : written.split(' ').toSorted()).toEqual(expected.toSorted());
      }),
      { numRuns: 500 },
    );
  });
});
