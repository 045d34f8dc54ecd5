import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { QueryError } from '../stores/store.js';
import { toFtsQuery } from '../stores/sqlite/fts-query.js';
import {
  MAX_DEPTH,
  MAX_PREFIX_TERMS,
  MAX_TERMS,
  searchTerms,
  type SearchNode,
} from './search-terms.js';

// The tree in a short readable form: words, "phrases", p*, (a | b), [a b -c].
function show(node: SearchNode): string {
  if (node.kind === 'term')
    return node.phrase ? `"${node.text}"` : `${node.text}${node.prefix ? '*' : ''}`;
  if (node.kind === 'any') return `(${node.of.map(show).join(' | ')})`;
  return `[${[...node.include.map(show), ...node.exclude.map((n) => `-${show(n)}`)].join(' ')}]`;
}
const tree = (text: string): string | undefined => {
  const parsed = searchTerms(text);
  return parsed && show(parsed.root);
};

describe('searchTerms', () => {
  it('reads words, phrases, prefixes, OR, NOT, -word and groups', () => {
    expect(tree('sourdough')).toBe('sourdough');
    expect(tree('sourdough starter')).toBe('[sourdough starter]');
    expect(tree('sourdough OR marathon')).toBe('(sourdough | marathon)');
    expect(tree('sourdough NOT levain')).toBe('[sourdough -levain]');
    expect(tree('sourdough -levain -"wild yeast"')).toBe('[sourdough -levain -"wild yeast"]');
    expect(tree('a1 b2 OR c3')).toBe('([a1 b2] | c3)');
    expect(tree('bread (rye OR spelt) NOT (white sugar)')).toBe(
      '[bread (rye | spelt) -[white sugar]]',
    );
    expect(tree('decorat* AND python')).toBe('[decorat* python]');
    expect(tree('(bread starter) oven')).toBe('[bread starter oven]');
  });

  it('takes lower-case operators, --flags and inner dashes as words', () => {
    expect(tree('git push --force')).toBe('[git push --force]');
    expect(tree('well-known e-mail')).toBe('[well-known e-mail]');
    expect(tree('cats or dogs')).toBe('[cats dogs]');
    expect(tree('f(x) g(y)')).toBe('[f(x g(y]');
  });

  it('closes a quote or a parenthesis left open, and ignores stray operators', () => {
    expect(tree('"proofing time')).toBe('"proofing time"');
    expect(tree('(rye OR spelt')).toBe('(rye | spelt)');
    expect(tree('rye) OR OR spelt OR')).toBe('(rye | spelt)');
    expect(tree('NOT')).toBeUndefined();
    expect(tree('"" ()')).toBeUndefined();
  });

  it('drops very common words when other words are given, and says when only those are', () => {
    expect(tree('the sourdough')).toBe('sourdough');
    expect(searchTerms('the')?.unranked).toBe(true);
    expect(searchTerms('the OR sourdough')?.unranked).toBe(false);
  });

  it('refuses a search of exclusions only, too many words or too deep a nesting', () => {
    expect(() => searchTerms('-levain')).toThrow(QueryError);
    expect(() => searchTerms('NOT levain NOT starter')).toThrow(/add a word to look for/);
    expect(() => searchTerms('bread OR -levain')).toThrow(/only leave words out/);
    expect(() =>
      searchTerms(Array.from({ length: MAX_TERMS + 1 }, (_, i) => `w${i}`).join(' ')),
    ).toThrow(/too many words/);
    expect(() => searchTerms(`${'('.repeat(MAX_DEPTH + 1)}x`)).toThrow(/nested parentheses/);
  });

  it('refuses too many prefixes in one line that says how many, and takes the most allowed', () => {
    const prefixes = (n: number): string =>
      Array.from({ length: n }, (_, i) => `${String.fromCharCode(97 + (i % 26))}*`).join(' OR ');
    expect(() => searchTerms(prefixes(182))).toThrow(
      /^too broad: 182 prefix terms \(word\*\) in one search, at most 8: narrow it/,
    );
    expect(searchTerms(prefixes(MAX_PREFIX_TERMS))?.prefixes).toHaveLength(MAX_PREFIX_TERMS);
  });

  it('lists the words and prefixes looked for, not those left out', () => {
    const parsed = searchTerms('sourdough "wild yeast" bake* -levain');
    expect(parsed?.words).toEqual(['sourdough', 'wild yeast']);
    expect(parsed?.prefixes).toEqual(['bake']);
  });

  it('parses anything typed into a tree, or undefined, or a QueryError', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string(), fc.stringMatching(/^(?:[a-c"*()\- ]|OR |NOT |AND ){0,24}$/)),
        (text) => {
          try {
            const parsed = searchTerms(text);
            if (parsed) expect(['term', 'all', 'any']).toContain(parsed.root.kind);
          } catch (error) {
            expect(error).toBeInstanceOf(QueryError);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe('toFtsQuery', () => {
  it('quotes every term and writes NOT as FTS5 takes it', () => {
    expect(toFtsQuery('sourdough OR marathon')?.match).toBe('"sourdough" OR "marathon"');
    expect(toFtsQuery('sourdough starter -levain')?.match).toBe(
      '("sourdough" AND "starter") NOT "levain"',
    );
    expect(toFtsQuery('decorat*')?.match).toBe('("decorat"* OR "decorat" OR "decorate")');
    expect(toFtsQuery('bake*')?.match).toBe('("bake"* OR "bake")');
    expect(toFtsQuery('a"b (x OR "y z")')?.match).toBe('"ab" AND ("x" OR "y z")');
  });
});

describe('searchTerms bounds what it reads (issue 41, point 13)', () => {
  it('refuses a word of more than 256 characters, naming the bound', () => {
    expect(() => searchTerms(`bread ${'x'.repeat(257)}`)).toThrow(/at most 256 characters/);
    expect(searchTerms('x'.repeat(256))?.words).toEqual(['x'.repeat(256)]);
  });

  it('refuses a search of more than 10,000 characters', () => {
    expect(() => searchTerms('bread '.repeat(2_000))).toThrow(/at most 10,000 characters/);
  });

  it('reads a word of many stars or closing parentheses as one term', () => {
    expect(searchTerms(`${'*'.repeat(200)}x`)?.words).toEqual([`${'*'.repeat(200)}x`]);
    expect(searchTerms(`bread${')'.repeat(9_000)}`)?.words).toEqual(['bread']);
    expect(searchTerms(`bread${'*'.repeat(200)}`)?.prefixes).toEqual(['bread']);
  });
});
