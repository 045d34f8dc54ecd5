import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { afterEach, describe, expect, it } from 'vitest';
import { DataFolder } from '../src/index.js';
import { checksumClaims } from '../src/pipeline/checksum.js';
import { claimInputs } from '../src/pipeline/claim.js';
import { exitCodeOf } from '../src/pipeline/exit-code.js';
import { ReportBuilder } from '../src/pipeline/import-report.js';
import type { OpenedSource } from '../src/read/open-source.js';
import { convertToTemp, tempDir } from './support/convert-to-temp.js';
import { fixturesOf } from './support/shared.js';
import { buildSqliteFixture } from './support/sqlite-fixtures.js';
import { startStoreWriter, type StoreWriter } from './support/sqlite-writer.js';

const OPENCODE = fixturesOf('opencode').find((p) => p.endsWith('opencode-db.sql')) ?? '';

// What the files beside a store are, byte for byte, and which there are.
function besideStore(path: string): string {
  const dir = dirname(path);
  return readdirSync(dir)
    .sort()
    .map((name) => {
      const bytes = readFileSync(join(dir, name));
      const info = statSync(join(dir, name));
      return `${name}:${bytes.length}:${createHash('sha256').update(bytes).digest('hex')}:${info.mtimeMs}`;
    })
    .join('\n');
}

// A session added the way OpenCode adds one: a session row, a message, its text part.
function sessionSql(id: string, words: string, at: number): string {
  return `INSERT INTO session VALUES ('${id}', 'prj_tides', NULL, 'slug', '/home/ana/code/tides', '${words}', '1.4.2', NULL, ${at}, ${at}, NULL);
INSERT INTO message VALUES ('msg_${id}', '${id}', ${at}, ${at}, '{"role":"user","time":{"created":${at}},"agent":"build","model":{"providerID":"p","modelID":"m"}}');
INSERT INTO part VALUES ('prt_${id}', 'msg_${id}', '${id}', ${at}, ${at}, '{"type":"text","text":"${words}"}');`;
}

const writers: StoreWriter[] = [];
afterEach(async () => {
  await Promise.all(writers.splice(0).map((w) => w.kill()));
});

describe('an agent store in WAL mode, its agent running', () => {
  it('is read with the rows committed only to its -wal, not those of an open write, and its files are left as they were', async () => {
    const store = buildSqliteFixture(OPENCODE);
    const writer = await startStoreWriter(store, 'wal');
    writers.push(writer);
    await writer.exec(sessionSql('ses_walonly', 'committed walrus answer', 1780001000000));
    // A write still open: its rows are the agent's until it commits.
    await writer.exec(
      `BEGIN IMMEDIATE; ${sessionSql('ses_open', 'uncommitted narwhal', 1780002000000)}`,
    );
    expect(statSync(`${store}-wal`).size).toBeGreaterThan(0);
    const before = besideStore(store);

    const { conversations, report } = await convertToTemp([store]);

    const titles = conversations.map((c) => c.title).sort();
    expect(titles).toContain('committed walrus answer');
    expect(titles).not.toContain('uncommitted narwhal');
    expect(conversations).toHaveLength(3);
    expect(exitCodeOf(report)).toBe(0);
    // Not a byte of the store, its -wal or its -shm written, nothing created or removed.
    expect(besideStore(store)).toBe(before);
  });

  it('is read the same once its agent died with the log unflushed (-wal and -shm left behind)', async () => {
    const store = buildSqliteFixture(OPENCODE);
    const writer = await startStoreWriter(store, 'wal');
    await writer.exec(sessionSql('ses_orphan', 'left in the log', 1780003000000));
    await writer.kill();
    const before = besideStore(store);
    const { conversations } = await convertToTemp([store]);
    expect(conversations.map((c) => c.title)).toContain('left in the log');
    expect(besideStore(store)).toBe(before);
  });

  it('counts as changed when only its -wal changed, so a second import reads it', async () => {
    const store = buildSqliteFixture(OPENCODE);
    const writer = await startStoreWriter(store, 'wal');
    writers.push(writer);
    const checksum = async (): Promise<string | undefined> => {
      const sources: OpenedSource[] = [];
      try {
        const claims = await claimInputs([store], sources, new ReportBuilder('b'));
        await checksumClaims(claims, {});
        return claims[0]?.checksum;
      } finally {
        await Promise.all(sources.map((s) => s.close()));
      }
    };
    const first = await checksum();
    const main = createHash('sha256').update(readFileSync(store)).digest('hex');
    await writer.exec(sessionSql('ses_later', 'a later commit', 1780004000000));
    // The main file did not change: the commit is in the -wal alone.
    expect(createHash('sha256').update(readFileSync(store)).digest('hex')).toBe(main);
    const second = await checksum();
    expect(first).toMatch(/^sha256:/);
    expect(second).not.toBe(first);

    const data = tempDir();
    const folder = await DataFolder.open(data);
    try {
      await writer.kill();
      const writerAgain = await startStoreWriter(store, 'wal');
      writers.push(writerAgain);
      await folder.import([store]);
      await writerAgain.exec(sessionSql('ses_latest', 'quokka appears', 1780005000000));
      const again = await folder.import([store]);
      expect(again.problems.map((p) => p.code)).not.toContain('file-already-imported');
      const found = await (await folder.reader()).search({ text: 'quokka' });
      expect(found.hits.length).toBeGreaterThan(0);
    } finally {
      await folder.close();
    }
  });
});

describe('an agent store in rollback-journal mode, locked by its agent mid-write', () => {
  it('is read as of its last commit, at once, and its journal is left alone', async () => {
    const store = buildSqliteFixture(OPENCODE);
    const db = new Database(store);
    db.pragma('journal_mode = DELETE');
    db.close();
    const writer = await startStoreWriter(store, 'rollback');
    writers.push(writer);
    // An exclusive lock, with enough written that the agent spills pages into the file.
    await writer.exec('PRAGMA cache_size = 1');
    await writer.exec(
      `BEGIN EXCLUSIVE; ${Array.from({ length: 40 }, (_, i) => sessionSql(`ses_x${i}`, `half written ${'x'.repeat(900)}`, 1780006000000 + i)).join('\n')}`,
    );
    expect(existsSync(`${store}-journal`)).toBe(true);
    const before = besideStore(store);
    const { conversations, report } = await convertToTemp([store]);
    expect(conversations.map((c) => c.title).sort()).toEqual([
      'Find where tide heights are rounded (@explore subagent)',
      'Fix the tide table parser',
    ]);
    expect(exitCodeOf(report)).toBe(0);
    expect(besideStore(store)).toBe(before);
  });
});

describe('a store that is not the agent’s', () => {
  it('is refused by name and tables, naming the file and what it holds', async () => {
    const dir = tempDir();
    const path = join(dir, 'sessions.db');
    const db = new Database(path);
    db.exec(
      'CREATE TABLE recipes (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE steps (id INTEGER)',
    );
    db.close();
    const { report } = await convertToTemp([path]);
    const refused = report.problems.find((p) => p.code === 'not-an-agent-store')?.examples[0];
    expect(refused?.message).toMatch(
      /sessions\.db" is a SQLite database but not Goose's sessions\.db/,
    );
    expect(refused?.message).toMatch(/its tables: recipes, steps/);
    expect(refused?.file).toMatch(/sessions\.db$/);
    expect(exitCodeOf(report)).toBe(2);
  });
});

describe('a row that does not parse', () => {
  it('is reported by file and row key, and the rest of the session and the store go on', async () => {
    const store = buildSqliteFixture(OPENCODE);
    const db = new Database(store);
    db.exec(
      `INSERT INTO part VALUES ('prt_broken', 'msg_a1', 'ses_main01', 1780000022000, 1780000022000, '{"type":"text","text":"cut sho');`,
    );
    db.close();
    const { conversations, report } = await convertToTemp([store]);
    const bad = report.problems.find((p) => p.code === 'malformed-row')?.examples[0];
    expect(bad?.message).toMatch(/row prt_broken \(session ses_main01\): its data is not JSON/);
    expect(bad?.file).toMatch(/opencode\.db$/);
    expect(bad?.record).toBe('prt_broken');
    expect(conversations).toHaveLength(2);
    const text = JSON.stringify(conversations);
    expect(text).toContain('The slice `lines[1:-1]` skipped the last row');
    expect(exitCodeOf(report)).toBe(1);
  });
});

describe("Cursor's login tokens beside its chats", () => {
  it('never reach the bundle, the store or the report', async () => {
    const global = buildSqliteFixture(
      fixturesOf('cursor').find((p) => p.endsWith('global-state.sql')) ?? '',
    );
    const workspace = buildSqliteFixture(
      fixturesOf('cursor').find((p) => p.endsWith('workspace-state.sql')) ?? '',
    );
    const kiro = buildSqliteFixture(fixturesOf('kiro')[0] ?? '');
    // The tokens are really there, where a reader that read the whole table would find them.
    const raw = new Database(global, { readonly: true });
    expect(
      raw.prepare(`SELECT value FROM ItemTable WHERE key = 'cursorAuth/accessToken'`).pluck().get(),
    ).toMatch(/PLANTED/);
    raw.close();
    const data = tempDir();
    const folder = await DataFolder.open(data);
    let report;
    try {
      report = await folder.import([global, workspace, kiro]);
      const found = await (await folder.reader()).search({ text: 'pagination' });
      expect(found.hits.length).toBeGreaterThan(0);
    } finally {
      await folder.close();
    }
    expect(report.totals.conversations).toBe(6);
    expect(JSON.stringify(report)).not.toMatch(/PLANTED|planted-user|planted-profile/);
    for (const name of readdirSync(data, { recursive: true, encoding: 'utf8' })) {
      const path = join(data, name);
      if (!statSync(path).isFile()) continue;
      expect(readFileSync(path).toString('latin1'), name).not.toMatch(
        /PLANTED|planted-user|planted-profile/,
      );
    }
  });
});

describe('each SQLite agent, imported', () => {
  // A word of each agent's fixture that only its messages (or tool results) hold.
  const words: [string, string, string][] = [
    ['opencode', 'opencode-db.sql', 'pytest'],
    ['opencode', 'storage-2025', 'invoices'],
    ['goose', 'sessions-db.sql', 'logrotate'],
    ['goose', '20250301_112233.jsonl', 'README'],
    ['zed', 'threads-current.sql', 'dry_run'],
    ['zed', 'threads-legacy.sql', 'serde_derive'],
    ['cursor', 'workspace-state.sql', 'loadConfig'],
    ['cursor', 'agent-transcripts-2026', 'cents'],
    ['kiro', 'data-sqlite3.sql', 'bucket_prefix'],
  ];
  it.each(words)('%s %s is found by its words', async (folder, name, word) => {
    const fixture = fixturesOf(folder).find((p) => p.endsWith(name)) ?? '';
    const input = fixture.endsWith('.sql') ? buildSqliteFixture(fixture) : fixture;
    const folderHandle = await DataFolder.open(tempDir());
    try {
      const report = await folderHandle.import([input]);
      expect(exitCodeOf(report)).toBe(0);
      const found = await (await folderHandle.reader()).search({ text: word });
      expect(found.hits.length, word).toBeGreaterThan(0);
    } finally {
      await folderHandle.close();
    }
  });
});
