import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeChatgptExport } from '../src/sample/write-samples.js';
import { CLI, chatgraph } from './support/run-cli.js';

// A kill -9 while records are converted on the worker thread and written, then the same command
// again: the folder must come out as one clean run makes it, nothing lost, nothing twice.

const root = mkdtempSync(join(tmpdir(), 'chatgraph-import-kill-'));
const exportZip = join(root, 'chatgpt.zip');
const clean = join(root, 'clean');
const CONVERSATIONS = 1000;

beforeAll(async () => {
  // Large enough that a run takes seconds: the kill lands with records in flight.
  await writeChatgptExport(exportZip, { seed: 23, conversations: CONVERSATIONS });
  const first = await chatgraph('import', exportZip, '--data-dir', clean);
  expect(first.code, first.stderr).toBe(0);
}, 180_000);

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

/** Every file under `dir`, relative, sorted. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)))
    .sort();
}

function conversationFiles(bundle: string): number {
  const dir = join(bundle, 'conversations');
  return existsSync(dir) ? readdirSync(dir).length : 0;
}

/** A conversation file without the time of the import that wrote it. */
function withoutImportTime(path: string): string {
  return readFileSync(path, 'utf8').replace(/"imported_at": "[^"]*"/g, '"imported_at": ""');
}

/** Runs the CLI and kills it -9 once its bundle holds `files` conversation files. */
async function killedAfter(args: string[], bundle: string, files: number): Promise<number> {
  const child = spawn(process.execPath, [CLI, ...args], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) =>
    child.on('exit', () => {
      resolve();
    }),
  );
  const poll = setInterval(() => {
    if (conversationFiles(bundle) >= files) child.kill('SIGKILL');
  }, 2);
  await exited;
  clearInterval(poll);
  return conversationFiles(bundle);
}

/** The bundle holds what the clean run's holds: the same files, the same conversations. */
function expectSameBundle(bundle: string, cleanBundle: string): void {
  const files = filesUnder(bundle);
  expect(files.filter((f) => f.endsWith('.tmp'))).toEqual([]);
  expect(files).toEqual(filesUnder(cleanBundle));
  for (const file of files.filter((f) => f.startsWith('conversations')))
    expect(withoutImportTime(join(bundle, file)), file).toBe(
      withoutImportTime(join(cleanBundle, file)),
    );
}

async function jsonOf(...args: string[]): Promise<unknown> {
  const result = await chatgraph(...args);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout);
}

/** What the store holds, counted: per source and month, every node and edge, a search. */
async function storeSummary(dir: string): Promise<unknown[]> {
  return Promise.all([
    jsonOf('stats', '--json', '--data-dir', dir),
    jsonOf(
      'query',
      'MATCH (n) RETURN labels(n)[0] AS label, count(n) AS n',
      '--json',
      '--data-dir',
      dir,
    ),
    jsonOf(
      'query',
      'MATCH ()-[r]->() RETURN type(r) AS kind, count(r) AS n',
      '--json',
      '--data-dir',
      dir,
    ),
    jsonOf('search', 'sourdough', '--limit', '50', '--json', '--data-dir', dir),
  ]);
}

// The clean import's summary, read once: both killed imports compare with it.
let cleanSummary: Promise<unknown[]> | undefined;

describe('a kill -9 during an import or a convert', () => {
  it.each([
    ['early, with nothing in the store yet', 200],
    ['late, with most files written', CONVERSATIONS - 100],
  ])(
    'import killed %s, then run again, equals one clean import',
    async (_when, files) => {
      const dir = join(root, `import-${files}`);
      const bundle = join(dir, 'bundle');
      const written = await killedAfter(['import', exportZip, '--data-dir', dir], bundle, files);
      // Killed in the middle: some files written, not all.
      expect(written).toBeGreaterThanOrEqual(files);
      expect(written).toBeLessThan(CONVERSATIONS);
      const again = await chatgraph('import', exportZip, '--data-dir', dir);
      expect(again.code, again.stderr).toBe(0);
      expectSameBundle(bundle, join(clean, 'bundle'));
      cleanSummary ??= storeSummary(clean);
      expect(await storeSummary(dir)).toEqual(await cleanSummary);
    },
    240_000,
  );

  it('convert killed half way, then run again, writes the bundle one clean convert writes', async () => {
    const out = join(root, 'converted');
    const written = await killedAfter(['convert', exportZip, '--out', out], out, CONVERSATIONS / 2);
    expect(written).toBeLessThan(CONVERSATIONS);
    const again = await chatgraph('convert', exportZip, '--out', out);
    expect(again.code, again.stderr).toBe(0);
    expectSameBundle(out, join(clean, 'bundle'));
  }, 240_000);
});
