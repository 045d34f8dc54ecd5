import fc from 'fast-check';
import { Redactor } from '../model/redact.js';
import { describe, expect, it } from 'vitest';
import { INLINE_TEXT_DIR, InlineTexts, inlineTextRef, isInlineTextRef } from './inline-text.js';

const ID = '0b7f1c1e-1111-4222-8333-444455556666';

describe('inline text refs', () => {
  it('name a file in the conversation folder, position first, whatever the name holds', () => {
    expect(inlineTextRef(ID, 1, 'notes.txt')).toBe(`${INLINE_TEXT_DIR}/${ID}/1-notes.txt`);
    expect(inlineTextRef(ID, 2, null)).toBe(`${INLINE_TEXT_DIR}/${ID}/2.txt`);
    expect(inlineTextRef(ID, 3, '../../etc/passwd')).toBe(
      `${INLINE_TEXT_DIR}/${ID}/3-__.._etc_passwd.txt`,
    );
    fc.assert(
      fc.property(fc.string(), fc.string(), fc.nat(), (id, name, n) => {
        const ref = inlineTextRef(id || 'x', n + 1, name);
        expect(isInlineTextRef(ref)).toBe(true);
        expect(ref.split('/')).toHaveLength(4);
        expect(Buffer.byteLength(ref.split('/')[3] ?? '')).toBeLessThan(255);
      }),
    );
  });

  it('refuse paths that leave the folder or are not text files', () => {
    expect(isInlineTextRef(`${INLINE_TEXT_DIR}/${ID}/1-a.txt`)).toBe(true);
    expect(isInlineTextRef(`${INLINE_TEXT_DIR}/../../chatgraph.sqlite.txt`)).toBe(false);
    expect(isInlineTextRef(`${INLINE_TEXT_DIR}/${ID}/1-a.png`)).toBe(false);
    expect(isInlineTextRef(`attachments/file-abc.txt`)).toBe(false);
    expect(isInlineTextRef(`${INLINE_TEXT_DIR}//x.txt`)).toBe(false);
  });
});

describe('InlineTexts', () => {
  it('numbers texts per conversation, never reusing a ref, and masks secrets on request', () => {
    const texts = new InlineTexts();
    const a1 = texts.attach('a', 'same.txt', 'one');
    const a2 = texts.attach('a', 'same.txt', 'two');
    const b1 = texts.attach('b', 'same.txt', 'three sk-ant-' + 'x'.repeat(30));
    expect([a1, a2, b1]).toEqual([
      `${INLINE_TEXT_DIR}/a/1-same.txt`,
      `${INLINE_TEXT_DIR}/a/2-same.txt`,
      `${INLINE_TEXT_DIR}/b/1-same.txt`,
    ]);
    expect(texts.lookup(a2)).toBe('two');
    const counts = {};
    const redactor = new Redactor();
    texts.learn(redactor);
    texts.redact(redactor, counts);
    expect(texts.lookup(b1)).toBe('three [REDACTED:anthropic-key]');
    expect(counts).toEqual({ 'anthropic-key': 1 });
  });
});
