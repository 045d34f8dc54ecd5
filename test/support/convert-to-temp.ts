import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ImportReport } from '../../src/pipeline/import-report.js';
import type { Conversation, MemoryStore } from '../../src/model/pam.js';
import { convertExports } from '../../src/pipeline/convert-exports.js';

/** A fixed import time, so outputs are byte-for-byte reproducible. */
export const FIXED_TIME = new Date('2026-01-02T03:04:05.678Z');

/** A fresh temporary folder. */
export function tempDir(prefix = 'chatgraph-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A converted bundle, read back. */
export interface ConvertedBundle {
  dir: string;
  report: ImportReport;
  conversations: Conversation[];
  store: MemoryStore;
}

/** Reads a bundle's files back, conversations sorted by id. */
export function readBundleFiles(dir: string): {
  conversations: Conversation[];
  store: MemoryStore;
} {
  const files = readdirSync(join(dir, 'conversations'))
    .filter((f) => f.endsWith('.json'))
    .sort();
  return {
    conversations: files.map(
      (f) => JSON.parse(readFileSync(join(dir, 'conversations', f), 'utf8')) as Conversation,
    ),
    store: JSON.parse(readFileSync(join(dir, 'memory-store.json'), 'utf8')) as MemoryStore,
  };
}

/** Converts inputs into a new temporary bundle at the fixed time. */
export async function convertToTemp(inputs: string[], dir = tempDir()): Promise<ConvertedBundle> {
  const report = await convertExports(inputs, { out: dir, importedAt: FIXED_TIME });
  return { dir, report, ...readBundleFiles(dir) };
}
