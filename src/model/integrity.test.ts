import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SHARED } from '../../test/support/shared.js';
import { contentHash } from './content-hash.js';
import { integrityChecksum } from './integrity.js';
import type { MemoryStore } from './pam.js';

const example = JSON.parse(
  readFileSync(join(SHARED, 'pam', 'examples', 'example-memory-store.json'), 'utf8'),
) as MemoryStore;

describe('integrityChecksum', () => {
  it('reproduces the checksum of the official example memory store', () => {
    expect(integrityChecksum(example.memories)).toBe(example.integrity.checksum);
  });

  it('does not depend on the order of the memories', () => {
    expect(integrityChecksum([...example.memories].reverse())).toBe(example.integrity.checksum);
  });
});

describe('contentHash', () => {
  it('reproduces every content_hash of the official example', () => {
    for (const memory of example.memories)
      expect(contentHash(memory.content)).toBe(memory.content_hash);
  });

  it('normalises case, edges and runs of whitespace as the Python reference does', () => {
    expect(contentHash('  Hello\t\n World ')).toBe(contentHash('hello world'));
    // U+FEFF is not whitespace to Python, so it is not trimmed (JS trim() would).
    expect(contentHash('\ufeffhello')).not.toBe(contentHash('hello'));
    expect(contentHash('\x85hello\x1f')).toBe(contentHash('hello'));
  });
});
