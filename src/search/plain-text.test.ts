import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RUN_MAX_CHARS, plainText } from './plain-text.js';
import { SNIPPET_MAX_CHARS, makeSnippet, snippetTerms } from './snippet.js';

describe('plainText', () => {
  it.each([
    ['****Panneaux** **Solaires**', 'Panneaux Solaires'],
    [
      '## Choisir des *panneaux* _solaires_\n\n> un __avis__ ~~faux~~',
      'Choisir des panneaux solaires un avis faux',
    ],
    ['```python\nprint("hi")\n```\nthen `x = 1`', 'print("hi") then x = 1'],
    ['see [the docs](https://example.com/a_b) and ![a chart](c.png)', 'see the docs and a chart'],
    ['the area is $\\pi r^2$ and $$\\frac{a}{b}$$', 'the area is pi r 2 and a/b'],
    ['it costs $5 and $10 a month', 'it costs $5 and $10 a month'],
    ['| kWh | CHF |\n|---|---|\n| 10 | 2 |', 'kWh CHF 10 2'],
    ['- one\n* two\n---\nthree', 'one two three'],
    ['keeps snake_case and 2_000 as they are', 'keeps snake_case and 2_000 as they are'],
  ])('%j reads as %j', (markdown, plain) => {
    expect(plainText(markdown)).toBe(plain);
  });

  it('cuts a base64 blob and a hash, keeping their start', () => {
    const blob = 'iVBORw0KGgoAAAANSUhEUgAA'.repeat(100);
    const hash = 'a'.repeat(64);
    const plain = plainText(`image ${blob} then ${hash} end`);
    expect(plain).toBe(`image ${blob.slice(0, 32)}… then ${hash.slice(0, 32)}… end`);
  });

  it('never leaves markup signs nor a run longer than the bound, whatever the text', () => {
    const piece = fc.constantFrom(
      '**',
      '*',
      '__',
      '~~',
      '`',
      '```',
      '# ',
      '\n',
      ' ',
      '[',
      ']',
      '(',
      ')',
      '$',
      'word',
      'é',
      'x'.repeat(70),
      '|',
      '> ',
      '-',
      '\\frac',
      '{',
      '}',
      '😀',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
        const plain = plainText(pieces.join(''));
        expect(plain).not.toMatch(/[*`|]|~~|^#{1,6} |\n/);
        for (const run of plain.split(' '))
          expect(run.length).toBeLessThanOrEqual(RUN_MAX_CHARS + 1);
        expect(plain).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
      }),
    );
  });

  it('makes snippets plain, the match marked, within the bound', () => {
    const snippet = makeSnippet(
      '# Title\n\n****Panneaux** **Solaires** en Suisse: `kWh` ' + 'Zm9v'.repeat(500),
      snippetTerms('solaires'),
      '[',
      ']',
    );
    expect(snippet).toBe(
      'Title Panneaux [Solaires] en Suisse: kWh Zm9vZm9vZm9vZm9vZm9vZm9vZm9vZm9v…',
    );
    fc.assert(
      fc.property(fc.string({ maxLength: 2000 }), (text) => {
        const cut = makeSnippet(text, snippetTerms('solaires'), '', '');
        expect(cut.replace(/…/g, '').length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS);
        expect(cut).not.toMatch(/[*`|]/);
      }),
    );
  });
});
