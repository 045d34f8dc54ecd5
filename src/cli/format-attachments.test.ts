import { describe, expect, it } from 'vitest';
import { formatAttachments } from './format-attachments.js';

describe('formatAttachments', () => {
  it('heads each attachment with its name and indents its text below', () => {
    expect(
      formatAttachments(
        [
          {
            id: 'a0',
            name: null,
            mimeType: 'text/plain',
            ref: 'attachments/text/c/1.txt',
            sizeBytes: 1234,
            text: 'line one\n\nline three',
          },
          { id: 'a1', name: 'scan.pdf', mimeType: null, ref: null, sizeBytes: null, text: null },
        ],
        '  ',
      ),
    ).toBe(
      [
        '  [attachment: pasted text (text/plain, 1,234 bytes)]',
        '      line one',
        '',
        '      line three',
        '  [attachment: scan.pdf (not in the export)]',
      ].join('\n'),
    );
  });
});
