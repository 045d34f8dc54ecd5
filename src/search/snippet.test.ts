import { describe, expect, it } from 'vitest';
import { SNIPPET_MAX_CHARS, makeSnippet, snippetTerms } from './snippet.js';

const marks = (snippet: string): string => snippet.replace(/[[\]…]/g, '');

describe('makeSnippet', () => {
  it('marks the matches of a short text and cuts nothing', () => {
    expect(makeSnippet('My focaccia levain', snippetTerms('levain'), '[', ']')).toBe(
      'My focaccia [levain]',
    );
  });

  it('stays within its budget on one unbroken token of 5 MB, the match still shown', () => {
    const token = 'x'.repeat(5 * 1024 * 1024);
    const snippet = makeSnippet(`start levain ${token} end`, snippetTerms('levain'), '[', ']');
    expect(marks(snippet).length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS);
    expect(snippet).toContain('[levain]');
    // The token matched by a prefix is cut too.
    const prefixed = makeSnippet(token, snippetTerms('xx*'), '[', ']');
    expect(marks(prefixed).length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS);
    expect(prefixed.startsWith('[x')).toBe(true);
  });

  it('stays within its budget on text with no word at all, and on long words side by side', () => {
    const signs = makeSnippet('!'.repeat(1_000_000), snippetTerms('levain'), '[', ']');
    expect(signs.length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS + 2);
    const words = Array.from({ length: 30 }, (_, i) => `${'w'.repeat(200)}${i}`).join(' ');
    const cut = makeSnippet(`${words} levain`, snippetTerms('levain'), '[', ']');
    expect(marks(cut).length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS);
    expect(cut).toContain('[levain]');
  });

  it('finds a match deep in 8 MB of short words, and shows it', () => {
    const snippet = makeSnippet(
      `${'a b '.repeat(2_000_000)}levain here`,
      snippetTerms('levain'),
      '[',
      ']',
    );
    expect(snippet).toContain('[levain]');
    expect(marks(snippet).length).toBeLessThanOrEqual(SNIPPET_MAX_CHARS);
  });

  // How fast is the benchmark's; what keeps it fast is that a long text is not tokenised whole,
  // only around its first match: a denser run of matches far after it is not looked at.
  it('reads a long text around its first match, not whole', () => {
    const filler = 'a b '.repeat(50_000);
    const snippet = makeSnippet(
      `${filler}first levain ${filler}levain levain levain dense`,
      snippetTerms('levain'),
      '[',
      ']',
    );
    expect(snippet).toContain('first [levain]');
    expect(snippet).not.toContain('dense');
  });
});
