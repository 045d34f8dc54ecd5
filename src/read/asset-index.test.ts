import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { INLINE_TEXT_DIR } from '../bundle/inline-text.js';
import { AssetIndex } from './asset-index.js';
import type { Entry } from './entry.js';

function entry(path: string): Entry {
  return {
    path,
    displayPath: path,
    size: 1,
    modified: undefined,
    open: () => Promise.resolve(Readable.from([Buffer.from('x')])),
  };
}

describe('AssetIndex', () => {
  it('never gives an export file the folder of inline texts', () => {
    // Grok's assets are `<uuid>/content` files; any export may hold a file named `text`.
    const index = new AssetIndex([entry('uploads/text'), entry('uploads/content')]);
    // Each ref once: a file is found by its name and by its whole path.
    const refs = [...new Set(index.refTable().values())];
    expect(refs).not.toContain(INLINE_TEXT_DIR);
    expect(refs).toEqual(['attachments/2-text', 'attachments/content']);
  });
});
