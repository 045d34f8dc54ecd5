import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it } from 'vitest';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { STEMS_TABLE } from '../src/stores/sqlite/stemmed-full-text.js';
import type { GraphBatch } from '../src/graph/graph-batch.js';
import { tempDir } from './support/convert-to-temp.js';
import { stemBatches } from './support/search-fixtures.js';
import { ROOT } from './support/shared.js';

const COMPILED_STORE = join(ROOT, 'dist', 'sqlite.js');

// Many copies of the stemming fixtures (French, German, Spanish, Portuguese), each its own ids,
// so filling the stemmed table of an older store takes long enough to be killed in the middle.
function manyNonEnglish(copies: number): GraphBatch[] {
  const batches: GraphBatch[] = [];
  for (let i = 0; i < copies; i++)
    for (const batch of stemBatches())
      batches.push(
        JSON.parse(JSON.stringify(batch).replaceAll('"st-', `"c${String(i)}-st-`)) as GraphBatch,
      );
  return batches;
}

const stemmedRows = (file: string): number => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(`SELECT count(*) FROM ${STEMS_TABLE}`).pluck().get() as number;
  } finally {
    db.close();
  }
};

describe('an older store brought up to date', () => {
  it('is never left with an empty stemmed table by a process killed while filling it', async () => {
    const file = join(tempDir(), 'chatgraph.sqlite');
    const store = SqliteStore.open(file);
    await store.upsert(manyNonEnglish(400));
    await store.close();
    const full = stemmedRows(file);
    expect(full).toBeGreaterThan(1000);
    const db = new Database(file);
    db.exec(`DROP TABLE ${STEMS_TABLE}`);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.close();

    // A process that opens it to write (the upgrade runs then), killed as soon as it writes.
    const child = spawn(process.execPath, [
      '--input-type=module',
      '-e',
      `import { SqliteStore } from ${JSON.stringify(COMPILED_STORE)};
       SqliteStore.open(${JSON.stringify(file)});`,
    ]);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    const wal = `${file}-wal`;
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if ((existsSync(wal) && statSync(wal).size > 0) || child.exitCode !== null) {
          clearInterval(poll);
          child.kill('SIGKILL');
          resolve();
        }
      }, 1);
    });
    await exited;

    // Whatever the kill left, opening the store again gives the whole stemmed table.
    await SqliteStore.open(file).close();
    expect(stemmedRows(file)).toBe(full);
  });
});
