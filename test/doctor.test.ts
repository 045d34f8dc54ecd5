import { cpSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { memoryIo } from '../src/cli/cli-io.js';
import { runCli } from '../src/cli/run-cli.js';
import { withWriteLock } from '../src/folder/write-lock.js';
import { tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';
import { layoutOf } from '../src/folder/layout.js';
import { PAIRS_TABLE } from '../src/stores/sqlite/word-pairs.js';

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo();
  const code = await runCli(['node', 'chatgraph', ...args], io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

const FIXTURE = join(ROOT, 'test', 'fixtures', 'chatgpt', 'kitchen-forks.json');

/** A copy of the embedded data folder, for one test to damage. */
function copyOf(data: string): string {
  const copy = join(tempDir(), 'data');
  cpSync(data, copy, { recursive: true });
  return copy;
}

/** Runs SQL on a data folder's store. */
function sql(data: string, statements: string): void {
  const db = new Database(join(data, 'chatgraph.sqlite'));
  // better-sqlite3 opens in SQLite's defensive mode, which keeps FTS5's shadow tables read-only.
  db.unsafeMode(true);
  db.exec(statements);
  db.close();
}

let data: string;
beforeAll(async () => {
  data = join(tempDir(), 'data');
  expect((await cli('import', FIXTURE, '--data-dir', data, '-q')).code).toBe(0);
  expect((await cli('embed', '--data-dir', data, '--quiet')).code).toBe(0);
}, 120_000);

describe('chatgraph doctor', () => {
  it('says ok on every line of a sound data folder, exit 0', async () => {
    const { code, out } = await cli('doctor', '--data-dir', data);
    expect(out).toContain(`ok    data folder: ${data} (`);
    expect(out).toMatch(/ok {4}store: SQLite quick_check ok/);
    // The pairs table is named after its word list (word-pairs.ts).
    expect(out).toContain(
      `ok    full-text index: attachment_fts, conversation_stems, conversation_words, memory_fts, message_fts, ${PAIRS_TABLE}, message_stems intact`,
    );
    expect(out).toMatch(/ok {4}embeddings: \d+ of \d+ messages embedded/);
    expect(out).toMatch(/ok {4}model: all-minilm-l6-v2\S* installed/);
    expect(out).toMatch(/ok {4}write lock: free/);
    expect(out).not.toMatch(/FIX/);
    expect(code).toBe(0);
    const json = JSON.parse((await cli('doctor', '--data-dir', data, '--json')).out) as {
      ok: boolean;
      checks: { name: string; status: string }[];
    };
    expect(json.ok).toBe(true);
    expect(json.checks.map((c) => c.status)).not.toContain('fix');
  });

  it('finds a damaged full-text index, names the command that fixes it, and that command does', async () => {
    const damaged = copyOf(data);
    sql(damaged, `DELETE FROM message_fts_data WHERE id > 10`);
    const { code, out } = await cli('doctor', '--data-dir', damaged);
    expect(out).toMatch(/FIX {3}full-text index: damaged: message_fts \(/);
    expect(out).toContain(`run: chatgraph reindex --data-dir ${damaged}`);
    expect(code).toBe(1);
    expect((await cli('reindex', '--data-dir', damaged, '-q')).code).toBe(0);
    const after = await cli('doctor', '--data-dir', damaged);
    expect(after.out).toMatch(/ok {4}full-text index/);
  });

  it('finds a missing model and names the fetch', async () => {
    const empty = tempDir();
    vi.stubEnv('CHATGRAPH_MODEL_DIR', empty);
    try {
      const { code, out } = await cli('doctor', '--data-dir', data);
      expect(out).toContain(`FIX   model: model all-minilm-l6-v2 is not installed in ${empty}`);
      expect(out).toContain('run: chatgraph model fetch\n');
      expect(code).toBe(1);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('finds vectors made with another model than the one in force', async () => {
    const other = copyOf(data);
    sql(
      other,
      `UPDATE meta SET value = 'paraphrase-multilingual-minilm-l12-v2' WHERE key = 'vector_model'`,
    );
    // The model the folder was embedded with is the one in force: it must be fetched.
    const fetch = await cli('doctor', '--data-dir', other);
    expect(fetch.out).toContain(
      'FIX   model: model paraphrase-multilingual-minilm-l12-v2 is not installed',
    );
    expect(fetch.out).toContain(
      'run: chatgraph model fetch --model paraphrase-multilingual-minilm-l12-v2',
    );
    expect(fetch.code).toBe(1);
    // The config file names the installed one: the vectors must be made again.
    const home = tempDir();
    mkdirSync(join(home, 'chatgraph'));
    writeFileSync(join(home, 'chatgraph', 'config.toml'), '[model]\nname = "all-minilm-l6-v2"\n');
    vi.stubEnv('XDG_CONFIG_HOME', home);
    try {
      const { code, out } = await cli('doctor', '--data-dir', other);
      expect(out).toContain(
        'FIX   model: the vectors were made with paraphrase-multilingual-minilm-l12-v2, not all-minilm-l6-v2',
      );
      expect(out).toContain(`run: chatgraph embed --model all-minilm-l6-v2 --data-dir ${other}`);
      expect(code).toBe(1);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('says when a multilingual folder has no language means kept, and the embed that keeps them', async () => {
    const old = copyOf(data);
    // Vectors filed under the model that searches centred by language, embedded before its
    // language means were kept: embedding.json has none.
    sql(old, `UPDATE meta SET value = 'multilingual-e5-small' WHERE key = 'vector_model'`);
    const { code, out } = await cli('doctor', '--data-dir', old);
    expect(out).toContain('FIX   language means: not kept for multilingual-e5-small');
    expect(out).toContain(`run: chatgraph embed --data-dir ${old}`);
    expect(code).toBe(1);
  });

  it('names the holder of the write lock and a pid file left by a dead one', async () => {
    const locked = copyOf(data);
    writeFileSync(join(locked, 'write.lock'), '');
    writeFileSync(join(locked, 'write.lock.pid'), '999999');
    const { out, code } = await cli('doctor', '--data-dir', locked);
    expect(out).toMatch(
      /ok {4}write lock: free \(write\.lock\.pid names pid 999999, which is gone/,
    );
    expect(code).toBe(0);
  });

  it('names a running holder of the write lock', async () => {
    const locked = copyOf(data);
    const held = await withWriteLock(layoutOf(locked), () => cli('doctor', '--data-dir', locked));
    expect(held.out).toContain(`note  write lock: held by pid ${process.pid}, running`);
    expect(held.code).toBe(0);
  });

  it('is a usage error (exit 2) without a data folder', async () => {
    const missing = join(tempDir(), 'none');
    const { code, err } = await cli('doctor', '--data-dir', missing);
    expect(code).toBe(2);
    expect(err).toBe(
      `chatgraph: no data folder at ${missing}: chatgraph import <export> makes one (or give --data-dir)`,
    );
  });
});
