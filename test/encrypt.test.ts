import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import Database from 'better-sqlite3-multiple-ciphers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importSamples } from './support/bundled-samples.js';
import { filesOf, wordsFound } from './support/encrypted-folder.js';
import { pamValidate } from './support/pam-sdk.js';
import { CLI, chatgraph, chatgraphWith } from './support/run-cli.js';
import { startServe } from './support/serve-cli.js';
import { ROOT } from './support/shared.js';

const root = mkdtempSync(join(tmpdir(), 'chatgraph-encrypt-'));
const PASSPHRASE = 'correct horse battery staple';
const withPassphrase = { CHATGRAPH_PASSPHRASE: PASSPHRASE };
const AGE_PROMPT = join(ROOT, 'test', 'python', 'age_passphrase.py');

// Words of the chats imported (bundled samples and a test fixture): each must be found in the
// plain folder first, so a test that then finds none in the encrypted folder could have failed.
const SAMPLE_WORDS = [
  'sourdough',
  'lighthouse',
  'Bristol',
  'ingredient',
  'Proofing bread',
  'startup',
];

/** The sample words found anywhere in the folder's bytes. */
function wordsIn(dir: string): string[] {
  return wordsFound(dir, SAMPLE_WORDS);
}

/** The rows of every table of a plain SQLite file, as one comparable value. */
function dump(file: string): Record<string, string[]> {
  const db = new Database(file, { readonly: true });
  try {
    const tables = db
      // A contentless FTS5 table without row sizes (the word pairs) cannot be scanned; its
      // shadow tables, dumped beside it, hold all it has.
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
         AND coalesce(sql, '') NOT LIKE '%columnsize=0%'`,
      )
      .pluck()
      .all() as string[];
    // Rows as sorted JSON: virtual tables (FTS) have no rowid order to rely on.
    const rows = (t: string): string[] =>
      db
        .prepare(`SELECT * FROM "${t}"`)
        .raw()
        .all()
        .map((row) => JSON.stringify(row))
        .sort();
    return Object.fromEntries(tables.sort().map((t) => [t, rows(t)]));
  } finally {
    db.close();
  }
}

const plain = join(root, 'plain');
const folder = join(root, 'folder');
const untouched = join(root, 'untouched');

beforeAll(async () => {
  importSamples(plain);
  const fixture = await chatgraph(
    'import',
    join(ROOT, 'test', 'fixtures', 'chatgpt', 'kitchen-forks.json'),
    '--data-dir',
    plain,
    '-q',
  );
  expect(fixture.code, fixture.stderr).toBe(0);
  cpSync(plain, folder, { recursive: true });
  const encrypted = await chatgraphWith(withPassphrase, 'encrypt', '--data-dir', folder);
  expect(encrypted.code, encrypted.stderr).toBe(0);
  // Kept as encrypt left it: the servers below may write to the index (which decrypt keeps).
  cpSync(folder, untouched, { recursive: true });
}, 180_000);

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('chatgraph encrypt', () => {
  it('leaves no sample word in any byte of any file of the folder, SQLite files included', () => {
    expect(wordsIn(plain)).toEqual([...SAMPLE_WORDS].sort());
    expect(wordsIn(folder)).toEqual([]);
    const files = filesOf(folder);
    expect(files).toContain('chatgraph.sqlite');
    expect(files).toContain('key.age');
    expect(files.filter((f) => f.startsWith('bundle/')).every((f) => f.endsWith('.age'))).toBe(
      true,
    );
  });

  it('writes age files the age CLI opens to a bundle pam validate accepts, byte for byte the plain one', () => {
    // The folder's identity, opened by age itself with the passphrase at its prompt.
    const identity = join(root, 'folder-identity.txt');
    const opened = spawnSync(
      'python3',
      [AGE_PROMPT, PASSPHRASE, 'age', '-d', '-o', identity, join(folder, 'key.age')],
      { encoding: 'utf8' },
    );
    expect(opened.status, opened.stderr).toBe(0);
    const out = join(root, 'age-decrypted');
    for (const file of filesOf(join(folder, 'bundle'))) {
      const target = join(out, file.slice(0, -'.age'.length));
      mkdirSync(dirname(target), { recursive: true });
      execFileSync('age', ['-d', '-i', identity, '-o', target, join(folder, 'bundle', file)]);
    }
    for (const file of filesOf(join(plain, 'bundle')))
      expect(
        readFileSync(join(out, file)).equals(readFileSync(join(plain, 'bundle', file))),
        file,
      ).toBe(true);
    const verdict = pamValidate(out);
    expect(verdict.status, verdict.output).toBe(0);
  });

  it('searches, lists and shows a thread of the encrypted folder with its passphrase', async () => {
    const search = await chatgraphWith(withPassphrase, 'search', 'sourdough', '--data-dir', folder);
    expect(search.code, search.stderr).toBe(0);
    expect(search.stdout).toContain('Sourdough Starter Not Rising');
    const list = await chatgraphWith(withPassphrase, 'list', '--data-dir', folder);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('Proofing bread in a cold kitchen');
    const id = /conversation (\w+); words/.exec(search.stdout)?.[1] ?? '';
    const thread = await chatgraphWith(withPassphrase, 'thread', id, '--data-dir', folder);
    expect(thread.code, thread.stderr).toBe(0);
    expect(thread.stdout).toContain('My sourdough starter is 9 days old');
  });

  it('takes the passphrase from a file', async () => {
    const file = join(root, 'passphrase.txt');
    writeFileSync(file, `${PASSPHRASE}\n`, { mode: 0o600 });
    const list = await chatgraph('list', '--data-dir', folder, '--passphrase-file', file);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('Sourdough Starter Not Rising');
  });

  it('says a wrong passphrase in one line, exit 2', async () => {
    const wrong = await chatgraphWith(
      { CHATGRAPH_PASSPHRASE: 'not it' },
      'search',
      'sourdough',
      '--data-dir',
      folder,
    );
    expect(wrong.code).toBe(2);
    expect(wrong.stderr.trim()).toBe(`chatgraph: wrong passphrase for ${folder}`);
    const decrypt = await chatgraphWith(
      { CHATGRAPH_PASSPHRASE: 'not it' },
      'decrypt',
      '--data-dir',
      folder,
    );
    expect(decrypt.code).toBe(2);
    expect(decrypt.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('asks for the passphrase rather than read it from nowhere', async () => {
    // The tests' own environment has no CHATGRAPH_PASSPHRASE, and execFile's stdin is no terminal.
    const list = await chatgraph('list', '--data-dir', folder);
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('CHATGRAPH_PASSPHRASE');
  });

  it('lists the bundle’s memories and checks its index, each opened in memory', async () => {
    const memories = await chatgraphWith(withPassphrase, 'memories', '--data-dir', folder);
    expect(memories.code, memories.stderr).toBe(0);
    expect(memories.stdout).toContain('Style notes');
    const doctor = await chatgraphWith(withPassphrase, 'doctor', '--data-dir', folder);
    expect(doctor.stdout).toContain('SQLite quick_check ok');
    expect(wordsIn(folder)).toEqual([]);
  });
});

describe('servers over an encrypted folder', () => {
  it('serve answers a search, the index opened with the passphrase', async () => {
    const { server, base } = await startServe(folder, { ...process.env, ...withPassphrase });
    try {
      const answer = await fetch(`${base}/api/search?mode=keyword&q=sourdough`);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toContain('Sourdough Starter Not Rising');
    } finally {
      server.kill('SIGKILL');
    }
  }, 120_000);

  it('mcp answers search_conversations over stdio', async () => {
    const client = new Client({ name: 'chatgraph-encrypt-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', '--data-dir', folder],
        env: { ...(process.env as Record<string, string>), ...withPassphrase },
        stderr: 'ignore',
      }),
    );
    try {
      const result = await client.callTool({
        name: 'search_conversations',
        arguments: { query: 'sourdough', mode: 'keyword' },
      });
      expect(JSON.stringify(result)).toContain('Sourdough Starter Not Rising');
    } finally {
      await client.close();
    }
  }, 120_000);
});

describe('chatgraph decrypt', () => {
  it('restores the bundle byte for byte and the index row for row', async () => {
    const copy = untouched;
    const decrypted = await chatgraphWith(withPassphrase, 'decrypt', '--data-dir', copy);
    expect(decrypted.code, decrypted.stderr).toBe(0);
    expect(filesOf(copy)).toEqual(filesOf(plain).filter((f) => !f.startsWith('write.lock.')));
    for (const file of filesOf(join(plain, 'bundle')))
      expect(
        readFileSync(join(copy, 'bundle', file)).equals(readFileSync(join(plain, 'bundle', file))),
        file,
      ).toBe(true);
    expect(dump(join(copy, 'chatgraph.sqlite'))).toEqual(dump(join(plain, 'chatgraph.sqlite')));
    const search = await chatgraph('search', 'sourdough', '--data-dir', copy);
    expect(search.stdout).toContain('Sourdough Starter Not Rising');
  });
});

describe('chatgraph encrypt --identity', () => {
  it('encrypts to an age identity file, which age opens the folder key with', async () => {
    const copy = join(root, 'identity');
    cpSync(plain, copy, { recursive: true });
    const mine = join(root, 'me.txt');
    execFileSync('age-keygen', ['-o', mine], { stdio: 'ignore' });
    const encrypted = await chatgraph('encrypt', '--data-dir', copy, '--identity', mine);
    expect(encrypted.code, encrypted.stderr).toBe(0);
    expect(wordsIn(copy)).toEqual([]);
    const identity = execFileSync('age', ['-d', '-i', mine, join(copy, 'key.age')]);
    const folderIdentity = join(root, 'identity-folder.txt');
    writeFileSync(folderIdentity, identity);
    const store = execFileSync('age', [
      '-d',
      '-i',
      folderIdentity,
      join(copy, 'bundle', 'memory-store.json.age'),
    ]);
    expect(store.equals(readFileSync(join(plain, 'bundle', 'memory-store.json')))).toBe(true);
    const search = await chatgraph('search', 'lighthouse', '--data-dir', copy, '--identity', mine);
    expect(search.code, search.stderr).toBe(0);
    const other = join(root, 'other.txt');
    execFileSync('age-keygen', ['-o', other], { stdio: 'ignore' });
    const wrong = await chatgraph('list', '--data-dir', copy, '--identity', other);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr.trim()).toBe(`chatgraph: that identity does not open ${copy}`);
  });
});
