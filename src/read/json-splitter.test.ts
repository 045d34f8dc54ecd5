import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonSplitter } from './json-splitter.js';
import { parseRecord, type SplitItem } from './record.js';

function split(
  text: string | Buffer,
  chunkSizes: number[] = [1 << 20],
  keys: string[] = [],
): SplitItem[] {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const splitter = new JsonSplitter(keys);
  const items: SplitItem[] = [];
  let at = 0;
  let n = 0;
  while (at < bytes.length) {
    const size = Math.max(1, chunkSizes[n++ % chunkSizes.length] ?? 1);
    items.push(...splitter.push(bytes.subarray(at, at + size)));
    at += size;
  }
  items.push(...splitter.end());
  return items;
}

const values = (items: SplitItem[]): unknown[] =>
  items.flatMap((item) => {
    if (item.kind !== 'record') return [];
    const parsed = parseRecord(item);
    return parsed.ok ? [parsed.value] : [];
  });

describe('JsonSplitter', () => {
  it('yields the elements of a top-level array one by one', () => {
    const items = split('[{"a":1},{"b":[1,2,{"c":"]}"}]}, 3, "x", null, true]');
    expect(values(items)).toEqual([{ a: 1 }, { b: [1, 2, { c: ']}' }] }, 3, 'x', null, true]);
    expect(items.every((item) => item.kind === 'record')).toBe(true);
  });

  it('handles escaped quotes and backslashes split across chunks', () => {
    const doc = JSON.stringify([{ t: 'a\\"b\\\\' }, { t: '\\\\\\"' }, { t: 'ok' }]);
    for (let size = 1; size < 8; size++) {
      expect(values(split(doc, [size]))).toEqual(JSON.parse(doc));
    }
  });

  it('streams the array under a wrapper key', () => {
    const items = split(
      '{"meta":{"x":[1]},"conversations":[{"id":1},{"id":2}],"tail":3}',
      [5],
      ['conversations'],
    );
    expect(items).toMatchObject([
      { kind: 'record', path: 'conversations', index: 0 },
      { kind: 'record', path: 'conversations', index: 1 },
    ]);
    expect(values(items)).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('yields a plain top-level object whole', () => {
    const doc = '{"id":"c1","mapping":{"a":{"children":["b"]}},"title":null}';
    for (const size of [1, 4, 100]) {
      const items = split(doc, [size], ['conversations']);
      expect(items).toMatchObject([{ kind: 'record', path: '$', index: 0, offset: 0 }]);
      expect(values(items)).toEqual([JSON.parse(doc)]);
    }
  });

  it('skips a byte-order mark', () => {
    expect(
      values(split(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('[1]')]))),
    ).toEqual([1]);
  });

  it('reports a cut-off document with the offset of the first lost record', () => {
    const doc = '[{"id":1},{"id":2},{"id":3,"text":"cut';
    const items = split(doc, [7]);
    expect(values(items)).toEqual([{ id: 1 }, { id: 2 }]);
    expect(items.at(-1)).toMatchObject({
      kind: 'problem',
      code: 'truncated-file',
      offset: doc.indexOf('{"id":3'),
      index: 2,
    });
  });

  it('cuts out a malformed record so that it alone fails to parse', () => {
    const items = split('[{"id":1},{"id":tru},{"id":3}]');
    expect(values(items)).toEqual([{ id: 1 }, { id: 3 }]);
    const bad = items[1];
    expect(bad?.kind === 'record' && parseRecord(bad)).toMatchObject({
      ok: false,
      code: 'malformed-record',
    });
  });

  it('says what is wrong with a file that is no JSON container', () => {
    expect(split('hello')).toMatchObject([{ kind: 'problem', code: 'not-json-container' }]);
    expect(split('')).toMatchObject([{ kind: 'problem', code: 'empty-file' }]);
  });

  it('flags records whose bytes are not UTF-8', () => {
    const bytes = Buffer.concat([
      Buffer.from('[{"t":"a'),
      Buffer.from([0xff, 0xfe]),
      Buffer.from('"}]'),
    ]);
    const [item] = split(bytes);
    expect(item?.kind === 'record' && parseRecord(item)).toMatchObject({
      ok: true,
      invalidUtf8: true,
    });
  });

  it('gives the same records as JSON.parse for any array and any chunking', () => {
    fc.assert(
      fc.property(
        fc.array(fc.jsonValue(), { maxLength: 8 }),
        fc.array(fc.integer({ min: 1, max: 17 }), { minLength: 1, maxLength: 5 }),
        (array, sizes) => {
          const doc = JSON.stringify(array);
          // -0 does not survive a JSON round trip; compare with what JSON.parse gives.
          expect(values(split(doc, sizes))).toEqual(JSON.parse(doc));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never throws on mangled bytes', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.integer({ min: 1, max: 50 }),
        (bytes, size) => {
          split(Buffer.from(bytes), [size], ['conversations']);
        },
      ),
      { numRuns: 500 },
    );
  });
});
