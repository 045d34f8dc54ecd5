import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseActivityHtml } from './activity-html.js';
import { htmlToText } from './html-text.js';

const entity = fc.oneof(
  fc.nat({ max: 0x7fffffff }).map((n) => `&#${n};`),
  fc.nat({ max: 0x7fffffff }).map((n) => `&#x${n.toString(16)};`),
  fc.constantFrom('&amp;', '&lt;', '&gt;', '&quot;', '&apos;', '&nbsp;', '&bogus;', '&#;', '&'),
);
const tag = fc.constantFrom('<p>', '</p>', '<br>', '<li>', '<b>', '</b>', '<div>', '</div>', '<');

describe('htmlToText', () => {
  it('decodes entities, and one that names no character becomes U+FFFD instead of throwing', () => {
    expect(htmlToText('<p>a &amp; b &lt;c&gt; &#39;d&#39; &#x41;</p>')).toBe("a & b <c> 'd' A");
    expect(htmlToText('x &#99999999; y')).toBe('x \ufffd y');
  });

  it('keeps lines for blocks and drops scripts', () => {
    expect(htmlToText('<p>one</p><p>two<br>three</p><ul><li>a</li></ul><script>x()</script>')).toBe(
      'one\ntwo\nthree\n\n- a',
    );
  });

  it('never throws on any mix of text, tags and entities (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(entity, tag, fc.string()), { maxLength: 40 }), (parts) => {
        expect(typeof htmlToText(parts.join(''))).toBe('string');
      }),
      { numRuns: 2000 },
    );
  });

  it('reads HTML nested 20,000 levels deep without running out of stack', () => {
    const deep = `${'<div>'.repeat(20_000)}deep${'</div>'.repeat(20_000)}`;
    expect(htmlToText(deep)).toBe('deep');
  });
});

describe('parseActivityHtml', () => {
  it('reads each outer-cell, even with a hostile entity in a response', () => {
    const cell = (prompt: string, response: string): string =>
      `<div class="outer-cell mdl-cell"><div class="mdl-grid"><div class="header-cell"><p class="mdl-typography--title">Gemini Apps<br></p></div><div class="content-cell mdl-typography--body-1">Prompted&nbsp;${prompt}<br>Apr 3, 2025, 10:15:00 AM UTC<br><p>${response}</p></div></div></div>`;
    const activities = parseActivityHtml(
      `<html><body>${cell('one', 'fine &amp; good')}${cell('two', 'bad &#99999999;')}</body></html>`,
    );
    expect(activities.map((a) => a.title)).toEqual(['Prompted one', 'Prompted two']);
    expect(activities.map((a) => a.header)).toEqual(['Gemini Apps', 'Gemini Apps']);
    expect(activities[0]?.time).toBe('2025-04-03T10:15:00.000Z');
    expect(htmlToText(activities[1]?.safeHtmlItem[0]?.html ?? '')).toBe('bad \ufffd');
  });
});
