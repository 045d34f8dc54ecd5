import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, statSync, utimesSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { PROVIDERS } from '../../src/providers/registry.js';
import { fileEntry } from '../../src/read/file-entry.js';
import { readHead } from '../../src/read/head.js';
import { readRecords } from '../../src/read/read-records.js';
import { parseRecord } from '../../src/read/record.js';
import { tempDir } from './convert-to-temp.js';
import { ROOT } from './shared.js';

/**
 * The moment a built store's file carries, as a zip entry carries its own; a folder fixture's
 * files carry it too (see {@link fixtureInput}).
 */
const FIXED_MTIME = new Date('2026-09-10T21:25:17Z');

/**
 * Builds an agent's SQLite store from the SQL text a fixture commits (no binary is committed):
 * its `-- file: <path>` line names the file to make (`opencode.db`, `User/globalStorage/state.vscdb`)
 * inside a new folder. Returns the store's path; `sqliteFixtureRoot` its folder.
 */
export function buildSqliteFixture(
  sqlPath: string,
  dir = tempDir('chatgraph-sqlite-fixture-'),
): string {
  const sql = readFileSync(sqlPath, 'utf8');
  const name = /^-- file: (.+)$/m.exec(sql)?.[1]?.trim() ?? 'store.db';
  const path = join(dir, name);
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    // Zed keeps each thread as a zstd frame: the fixture writes `zstd('{…}')` and the real
    // compressor (provisioned) makes the frame, so no binary is committed.
    db.function('zstd', (text: unknown) =>
      execFileSync('zstd', ['-q', '-c', '-3'], { input: String(text) }),
    );
    db.exec(sql);
  } finally {
    db.close();
  }
  utimesSync(path, FIXED_MTIME, FIXED_MTIME);
  return path;
}

/**
 * A fixture's path to convert: a committed `.sql` text is built into its store first, and a
 * folder's files are given {@link FIXED_MTIME}. A record with no time of its own (Claude.ai's
 * memories.json, a Kilo Code task) takes its file's modified time, which a checkout sets to the
 * moment of the checkout: the goldens would depend on when the clone was made, and did on which
 * test file ran first (golden.test.ts set them, golden-graph.test.ts relied on it).
 */
export function fixtureInput(path: string): string {
  if (path.endsWith('.sql')) return buildSqliteFixture(path);
  // Our own fixtures only: the public samples beside the project are read-only.
  if (path.startsWith(ROOT) && statSync(path).isDirectory())
    for (const name of readdirSync(path, { recursive: true, encoding: 'utf8' }))
      utimesSync(join(path, name), FIXED_MTIME, FIXED_MTIME);
  return path;
}

/**
 * The records an agent's SQLite fixture gives its provider, parsed, as the read layer hands
 * them over (for the property tests that mangle them).
 */
export async function sqliteRecordsOf(sqlPath: string): Promise<unknown[]> {
  const path = buildSqliteFixture(sqlPath);
  const entry = fileEntry(path, basename(path), path, statSync(path).size, statSync(path).mtime);
  const head = (await readHead(entry)).toString('utf8');
  const detection = PROVIDERS.map((p) => p.detect(path, head)).find((d) => d !== undefined);
  if (!detection) throw new Error(`no provider claims ${path}`);
  const values: unknown[] = [];
  for await (const item of readRecords(entry, detection.format)) {
    if (item.kind !== 'record') continue;
    const parsed = parseRecord(item);
    if (parsed.ok) values.push(parsed.value);
  }
  return values;
}
