import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CI, PAM_REFERENCE, ROOT } from '../../test/support/shared.js';
import { PAM_INSTALL } from '../../test/support/pam-validator.js';
import { contentHash } from './content-hash.js';
import { integrityChecksum } from './integrity.js';
import type { Memory } from './pam.js';

function memory(id: string, content: string): Memory {
  return {
    id,
    type: 'preference',
    status: 'active',
    content,
    content_hash: contentHash(content),
    tags: ['kitchen'],
    confidence: { initial: 0.8, current: 0.8 },
    temporal: { created_at: '2025-03-02T09:15:00Z' },
    provenance: { platform: 'chatgpt', extraction_method: 'manual', extractor: 'chatgraph' },
  };
}

// Ids out of order (Python sorts by code point, so "Z" before "a" before "é"), content with
// accents, decomposed letters and odd whitespace.
const OURS: Memory[] = [
  memory('mem-é-last', 'Prefers the metric system when cooking; bakes at 220 °C.'),
  memory('mem-a-first', '  Lives in Porto and\tcycles to work  '),
  memory('mem-Z-upper', 'Cafe\u0301 au lait in the morning, never after noon.'),
];

// What the official Python package (`portable_ai_memory.core.integrity`) computes.
function reference(memories: readonly Memory[]): { checksum: string; hashes: string[] } {
  const python = join(ROOT, '.venv-pam', 'bin', 'python');
  if (!existsSync(python))
    throw new Error(`the official PAM package is missing: ${python} (${PAM_INSTALL})`);
  const run = spawnSync(
    python,
    [
      '-c',
      'import json, sys\n' +
        'from portable_ai_memory.core.integrity import compute_content_hash, compute_integrity_checksum\n' +
        'memories = json.load(sys.stdin)\n' +
        'print(json.dumps({"checksum": compute_integrity_checksum(memories), "hashes": [compute_content_hash(m["content"]) for m in memories]}))',
    ],
    { input: JSON.stringify(memories), encoding: 'utf8' },
  );
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { checksum: string; hashes: string[] };
}

describe('integrityChecksum', () => {
  it('equals the official Python package on memories of ours', () => {
    const expected = reference(OURS);
    expect(integrityChecksum(OURS)).toBe(expected.checksum);
    expect(OURS.map((m) => contentHash(m.content))).toEqual(expected.hashes);
  });

  it('does not depend on the order of the memories', () => {
    expect(integrityChecksum([...OURS].reverse())).toBe(integrityChecksum(OURS));
  });
});

describe('contentHash', () => {
  it('normalises case, edges and runs of whitespace as the Python reference does', () => {
    expect(contentHash('  Hello\t\n World ')).toBe(contentHash('hello world'));
    // U+FEFF is not whitespace to Python, so it is not trimmed (JS trim() would).
    expect(contentHash('\ufeffhello')).not.toBe(contentHash('hello'));
    expect(contentHash('\x85hello\x1f')).toBe(contentHash('hello'));
  });
});

// Conformance layer: the official example memory store (../shared/pam), required under CI.
const EXAMPLE = join(PAM_REFERENCE, 'examples', 'example-memory-store.json');

describe.skipIf(!existsSync(EXAMPLE) && !CI)('the official example memory store', () => {
  function example(): { memories: Memory[]; integrity: { checksum: string } } {
    if (!existsSync(EXAMPLE))
      throw new Error(
        `the official PAM examples are required under CI but missing: looked for ${EXAMPLE} (set CHATGRAPH_SHARED)`,
      );
    return JSON.parse(readFileSync(EXAMPLE, 'utf8')) as {
      memories: Memory[];
      integrity: { checksum: string };
    };
  }

  it('has its checksum reproduced, in any order', () => {
    const { memories, integrity } = example();
    expect(integrityChecksum(memories)).toBe(integrity.checksum);
    expect(integrityChecksum([...memories].reverse())).toBe(integrity.checksum);
  });

  it('has every content_hash reproduced', () => {
    for (const memory of example().memories)
      expect(contentHash(memory.content)).toBe(memory.content_hash);
  });
});
