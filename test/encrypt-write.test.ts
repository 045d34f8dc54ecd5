import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SAMPLE_INPUTS } from './support/bundled-samples.js';
import { filesOf, wordsFound } from './support/encrypted-folder.js';
import { pamValidate } from './support/pam-sdk.js';
import { chatgraph, chatgraphWith } from './support/run-cli.js';
import { startServe } from './support/serve-cli.js';
import { ROOT } from './support/shared.js';
import { startCli } from './support/watch-cli.js';

// Writers on an encrypted folder (docs/encryption.md): every file they write is sealed, so at
// each step no word of what was imported, remembered or followed is readable on disk. One
// folder, written to in turn, as a person would.

const root = mkdtempSync(join(tmpdir(), 'chatgraph-encrypt-write-'));
const folder = join(root, 'folder');
const PASSPHRASE = 'a long and private passphrase';
const env = { CHATGRAPH_PASSPHRASE: PASSPHRASE };
// sign's key lives in the config folder, never in the data folder: a private one here.
const signing = { ...env, XDG_CONFIG_HOME: join(root, 'config') };

// Seven letters or more (see wordsFound); each is shown readable first where it comes from.
const SAMPLE_WORDS = ['sourdough', 'lighthouse', 'Bristol', 'ingredient', 'Proofing bread'];
const REMEMBERED = 'marmalade-quincewood';
const FOLLOWED = 'zeppelinquay';
const SESSION = 'cf034633-f741-400e-8e24-96eeaba7caf8';
// The ChatGPT sample's "Sourdough Starter Not Rising" (ids are derived, the same every import).
const SOURDOUGH = '1af8ac81-8676-540b-90b2-5a092d327d75';
const NEW_SESSION = '0b0e57a1-2c3d-4e5f-8a9b-0c1d2e3f4a5b';
const ALL_WORDS = [...SAMPLE_WORDS, REMEMBERED, FOLLOWED];

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** The samples imported again with --force: every file read back through the seal. */
async function importSamplesAgain(): Promise<{ stdout: string }> {
  const again = await chatgraphWith(
    env,
    'import',
    '--force',
    ...SAMPLE_INPUTS,
    '--data-dir',
    folder,
  );
  expect(again.code, again.stderr).toBe(0);
  return again;
}

function nothingReadable(): void {
  expect(wordsFound(folder, ALL_WORDS)).toEqual([]);
  const plain = filesOf(folder).filter(
    (f) => !f.endsWith('.age') && !/^write\.lock/.test(f) && f !== 'encryption.json',
  );
  // What is left is SQLite files, each SQLCipher's (no "SQLite format 3" header).
  for (const file of plain) {
    expect(file, file).toMatch(/\.sqlite(-wal|-shm)?$/);
    expect(readFileSync(join(folder, file)).subarray(0, 15).toString('latin1')).not.toBe(
      'SQLite format 3',
    );
  }
}

describe('writers on an encrypted data folder', () => {
  it('import --encrypt writes a new folder encrypted from its first byte', async () => {
    const fixture = join(ROOT, 'test', 'fixtures', 'chatgpt', 'kitchen-forks.json');
    // The words are there to find in what is imported, so finding none below means something.
    expect(wordsFound(join(ROOT, 'samples', 'claude-code'), ['ingredient'])).toEqual([
      'ingredient',
    ]);
    expect(wordsFound(join(ROOT, 'test', 'fixtures', 'chatgpt'), ['Proofing bread'])).toEqual([
      'Proofing bread',
    ]);
    const imported = await chatgraphWith(
      env,
      'import',
      '--encrypt',
      ...SAMPLE_INPUTS,
      fixture,
      '--data-dir',
      folder,
      '-q',
    );
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stderr).toContain(`encrypted ${folder}`);
    nothingReadable();
    const search = await chatgraphWith(env, 'search', 'sourdough', '--data-dir', folder);
    expect(search.stdout).toContain('Sourdough Starter Not Rising');
    // Again: each file read back through the seal is found unchanged, none written twice.
    const again = await importSamplesAgain();
    expect(again.stdout).toMatch(/0 written, 0 updated, 48 unchanged/);
  }, 180_000);

  it('remembers into a sealed journal, lists and finds the memory, and embeds', async () => {
    const remembered = await chatgraphWith(
      env,
      'remember',
      '--type',
      'preference',
      `Bake with ${REMEMBERED} jam on Sundays`,
      '--data-dir',
      folder,
    );
    expect(remembered.code, remembered.stderr).toBe(0);
    expect(filesOf(join(folder, 'bundle'))).toContain('memory-journal.jsonl.age');
    const memories = await chatgraphWith(env, 'memories', '--data-dir', folder);
    expect(memories.stdout).toContain(REMEMBERED);
    const embedded = await chatgraphWith(env, 'embed', '--data-dir', folder);
    expect(embedded.code, embedded.stderr).toBe(0);
    expect(filesOf(folder)).toContain('vectors-cache.sqlite');
    const meaning = await chatgraphWith(
      env,
      'search',
      'bread dough that does not rise',
      '--mode',
      'semantic',
      '--data-dir',
      folder,
    );
    expect(meaning.code, meaning.stderr).toBe(0);
    expect(meaning.stdout).toContain('meaning');
    // The vector index is never saved on an encrypted folder (a readable digest), and doctor says so.
    const doctor = await chatgraphWith(env, 'doctor', '--data-dir', folder);
    expect(doctor.stdout).toContain('built in memory by each process');
    expect(filesOf(folder)).not.toContain('vector-index.bin');
    nothingReadable();
  }, 300_000);

  it('watch follows a new Claude Code session into it', async () => {
    const drop = join(root, 'drop');
    mkdirSync(join(drop, 'project'), { recursive: true });
    const watch = startCli(['watch', '--data-dir', folder, drop], { ...process.env, ...env });
    try {
      await watch.waitFor(/^following /);
      const log = readFileSync(
        join(ROOT, 'samples', 'claude-code', '-home-sam-code-recipes', `${SESSION}.jsonl`),
        'utf8',
      );
      writeFileSync(
        join(drop, 'project', `${NEW_SESSION}.jsonl`),
        log.replaceAll(SESSION, NEW_SESSION).replaceAll('recipe site', `${FOLLOWED} site`),
      );
      await watch.waitFor(new RegExp(`${NEW_SESSION}\\.jsonl: .*1 conversation written`));
    } finally {
      await watch.stop('SIGINT');
    }
    const search = await chatgraphWith(env, 'search', FOLLOWED, '--data-dir', folder);
    expect(search.stdout).toContain(FOLLOWED);
    nothingReadable();
  }, 180_000);

  it('serves an attachment opened in memory, and deletes a conversation with its files', async () => {
    const { server, base } = await startServe(folder, { ...process.env, ...env });
    try {
      const ref = 'attachments/file-pXwhJCECOJDLtsBr2sRLlU-october-transactions.csv';
      const answer = await fetch(`${base}/api/attachment/x?ref=${encodeURIComponent(ref)}`);
      expect(answer.status).toBe(200);
      expect(await answer.text()).toMatch(/^date,description,amount,category\n2025-10-01,Rent/);
    } finally {
      server.kill('SIGKILL');
    }
    // The ChatGPT sample's "Monthly Spending Breakdown", which that attachment belongs to.
    const id = '8e0af27f';
    const deleted = await chatgraphWith(env, 'delete', id, '--data-dir', folder);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain('with 1 attachment file');
    expect(filesOf(join(folder, 'bundle')).some((f) => f.includes('october-transactions'))).toBe(
      false,
    );
    expect(filesOf(folder)).toContain('deleted.json.age');
    nothingReadable();
  }, 180_000);

  it('reports a damaged encrypted file and writes it anew at the next import', async () => {
    const damaged = join(folder, 'bundle', 'conversations', `${SOURDOUGH}.json.age`);
    const bytes = readFileSync(damaged);
    bytes[bytes.length - 5] = (bytes[bytes.length - 5] ?? 0) ^ 0xff;
    writeFileSync(damaged, bytes);
    const reindexed = await chatgraphWith(env, 'reindex', '--data-dir', folder);
    expect(reindexed.code).toBe(1);
    expect(reindexed.stdout + reindexed.stderr).toContain(`${SOURDOUGH}.json`);
    expect(reindexed.stdout + reindexed.stderr).toContain('an encrypted file that does not open');
    await importSamplesAgain();
    const thread = await chatgraphWith(env, 'thread', SOURDOUGH.slice(0, 8), '--data-dir', folder);
    expect(thread.stdout).toContain('My sourdough starter is 9 days old');
    nothingReadable();
  }, 180_000);

  it('exports a plain PAM bundle, and signs and verifies the encrypted one', async () => {
    const exported = await chatgraphWith(
      env,
      'export-pam',
      '--data-dir',
      folder,
      '--out',
      join(root, 'exported'),
    );
    expect(exported.code, exported.stderr).toBe(0);
    expect(pamValidate(join(root, 'exported')).status).toBe(0);
    expect(wordsFound(join(root, 'exported'), [REMEMBERED])).toEqual([REMEMBERED]);
    const made = await chatgraphWith(signing, 'key', 'new');
    expect(made.code, made.stderr).toBe(0);
    const signed = await chatgraphWith(signing, 'sign', '--data-dir', folder);
    expect(signed.code, signed.stderr).toBe(0);
    expect(filesOf(join(folder, 'bundle'))).toContain('signature-manifest.json.age');
    const verified = await chatgraphWith(signing, 'verify', '--data-dir', folder);
    expect(verified.code, verified.stderr).toBe(0);
    nothingReadable();
  }, 180_000);

  it('decrypts to a bundle pam validate accepts, holding all that was written encrypted', async () => {
    const decrypted = await chatgraphWith(env, 'decrypt', '--data-dir', folder);
    expect(decrypted.code, decrypted.stderr).toBe(0);
    const verdict = pamValidate(join(folder, 'bundle'));
    expect(verdict.status, verdict.output).toBe(0);
    const memories = readFileSync(join(folder, 'bundle', 'memory-store.json'), 'utf8');
    expect(memories).toContain(REMEMBERED);
    const search = await chatgraph('search', FOLLOWED, '--data-dir', folder);
    expect(search.stdout).toContain(FOLLOWED);
    // The manifest names and digests plain files: the signature holds once decrypted too.
    const verified = await chatgraphWith(signing, 'verify', '--data-dir', folder);
    expect(verified.code, verified.stdout + verified.stderr).toBe(0);
  }, 180_000);
});
