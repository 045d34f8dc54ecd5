import { describe, expect, it } from 'vitest';
import { attachmentViews } from './attachment-views.js';

const REF = 'attachments/text/c/1-notes.txt';

describe('attachmentViews', () => {
  it("joins the bundle's attachments with the graph's text, by ref", () => {
    const stored = [
      {
        id: 'a0',
        name: 'notes.txt',
        mimeType: 'text/plain',
        ref: REF,
        sizeBytes: 5,
        text: 'hello',
      },
      {
        id: 'a1',
        name: 'x.png',
        mimeType: null,
        ref: 'attachments/x.png',
        sizeBytes: 3,
        text: null,
      },
    ];
    const pam = [
      {
        type: 'document' as const,
        name: 'notes.txt',
        mime_type: 'text/plain',
        size_bytes: 5,
        ref: REF,
        provider_id: null,
      },
      {
        type: 'image' as const,
        name: 'x.png',
        mime_type: null,
        size_bytes: 3,
        ref: 'attachments/x.png',
        provider_id: null,
      },
    ];
    expect(attachmentViews(pam, stored).map((a) => [a.type, a.text])).toEqual([
      ['document', 'hello'],
      ['image', null],
    ]);
    // Without the bundle's copy, the graph's alone.
    expect(attachmentViews(undefined, stored).map((a) => [a.type, a.name, a.text])).toEqual([
      ['document', 'notes.txt', 'hello'],
      ['file', 'x.png', null],
    ]);
  });
});
