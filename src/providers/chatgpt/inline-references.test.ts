import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  resolveInlineReferences,
  resolveMessageReferences,
  sourceUrl,
} from './inline-references.js';

const S = '\uE200';
const SEP = '\uE202';
const E = '\uE201';
const cite = (...refs: string[]): string => `${S}cite${refs.map((r) => SEP + r).join('')}${E}`;
const MARKERS = /[\uE200-\uE204]/;

describe('resolveInlineReferences', () => {
  it('numbers cited sources in the order the text cites them, across reference kinds', () => {
    const first = cite('turn0search3');
    const second = cite('turn0search1');
    const text = `Book ahead. ${first} Lunch is 40 euros. ${second} Again. ${first}`;
    const metadata = {
      content_references: [
        {
          matched_text: first,
          type: 'grouped_webpages',
          items: [
            { title: 'Guide', url: 'https://g.example/a?utm_source=chatgpt.com', snippet: 's' },
          ],
        },
        {
          matched_text: first,
          type: 'grouped_webpages',
          items: [{ title: 'Guide', url: 'https://g.example/a' }],
        },
      ],
      search_result_groups: [
        {
          entries: [
            {
              title: 'Prices',
              url: 'https://p.example/2026',
              ref_id: { turn_index: 0, ref_type: 'search', ref_index: 1 },
            },
          ],
        },
      ],
    };
    const { text: out, cited } = resolveInlineReferences(text, metadata);
    expect(out).toBe('Book ahead. [1] Lunch is 40 euros. [2] Again. [1]');
    expect(cited).toEqual([
      { title: 'Guide', url: 'https://g.example/a', snippet: 's' },
      { title: 'Prices', url: 'https://p.example/2026', snippet: null },
    ]);
  });

  it('gives an entity its name, drops images and lists, keeps bookkeeping spaces', () => {
    const entity = `${S}entity${SEP}["city","Lyon","France"]${E}`;
    const images = `${S}i${SEP}turn0image0${E}`;
    const text = `Visit ${entity} in May.${images} Then rest. \uE203Quoted.\uE204`;
    const metadata = {
      content_references: [
        { matched_text: ' ', type: 'sources_footnote', sources: [] },
        { matched_text: images, type: 'image_v2' },
      ],
    };
    expect(resolveInlineReferences(text, metadata).text).toBe(
      'Visit Lyon in May. Then rest. Quoted.',
    );
  });

  it('replaces older 【n†source】 spans from metadata.citations', () => {
    const text = 'Opens at 9:30 【3†source】.';
    const start = text.indexOf('【');
    const metadata = {
      citations: [
        {
          start_ix: start,
          end_ix: start + '【3†source】'.length,
          metadata: { title: 'Hours', url: 'https://m.example/h', text: '9:30' },
        },
      ],
    };
    const { text: out, cited } = resolveInlineReferences(text, metadata);
    expect(out).toBe('Opens at 9:30 [1].');
    expect(cited).toEqual([{ title: 'Hours', url: 'https://m.example/h', snippet: '9:30' }]);
  });

  it('leaves text without markers as it was, and never leaves a marker character (property)', () => {
    const piece = fc.oneof(
      fc.string(),
      fc.constantFrom(S, SEP, E, '\uE203', '\uE204', 'cite', 'turn0search1', '【', '】', ' '),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.string(), (pieces, plain) => {
        const text = pieces.join('');
        const { text: out } = resolveInlineReferences(text, {
          content_references: [{ matched_text: text.slice(0, 5), type: 'grouped_webpages' }],
        });
        expect(MARKERS.test(out)).toBe(false);
        const clean = plain.replace(/[\uE200-\uE204【]/g, '');
        expect(resolveInlineReferences(clean, {}).text).toBe(clean);
      }),
    );
  });
});

describe('resolveMessageReferences', () => {
  it('numbers across text parts and joins them as the message text', () => {
    const one = cite('turn0search0');
    const two = cite('turn0search1');
    const results = [0, 1].map((i) => ({
      title: `R${i}`,
      url: `https://r.example/${i}`,
      ref_id: { turn_index: 0, ref_type: 'search', ref_index: i },
    }));
    const resolved = resolveMessageReferences(
      {
        text: `a ${one}\nb ${two}`,
        parts: [
          { type: 'text', text: `a ${one}` },
          { type: 'image', ref: 'x.png' },
          { type: 'text', text: `b ${two}` },
        ],
      },
      { search_result_groups: [{ entries: results }] },
    );
    expect(resolved.text).toBe('a [1]\nb [2]');
    expect(resolved.parts.map((p) => p.text ?? p.ref)).toEqual(['a [1]', 'x.png', 'b [2]']);
  });
});

describe('sourceUrl', () => {
  it('drops tracking parameters and keeps the others', () => {
    expect(sourceUrl('https://a.example/p?utm_source=chatgpt.com&id=3&fbclid=x')).toBe(
      'https://a.example/p?id=3',
    );
    expect(sourceUrl('not a url')).toBeNull();
  });
});
