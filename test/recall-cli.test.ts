import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3-multiple-ciphers';
import { describe, expect, it, vi } from 'vitest';
import { memoryIo } from '../src/cli/cli-io.js';
import { runEmbedCommand } from '../src/cli/commands/embed.js';
import { layoutOf } from '../src/folder/layout.js';
import { textHash } from '../src/embed/text-hash.js';
import { TOPICS, writeExport } from './support/recall-fixtures.js';
import { tempDir } from './support/convert-to-temp.js';
import { testModelDir } from './support/embedding-model.js';
import { ROOT } from './support/shared.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const CRASH_CHILD = join(ROOT, 'test', 'support', 'crash-child.mjs');
const run = promisify(execFile);

const env = { ...process.env, CHATGRAPH_MODEL_DIR: testModelDir() };

async function cli(args: string[], extraEnv: Record<string, string> = {}) {
  return run(process.execPath, [CLI, ...args], { env: { ...env, ...extraEnv } });
}

interface SearchJson {
  mode: string;
  conversations: {
    platformConversationId: string;
    why?: { keyword?: unknown; semantic?: unknown };
    best: { messageId: string };
  }[];
}

describe('recall from the CLI, with the real model', () => {
  it('imports, embeds, and finds a conversation by a paraphrase that shares no word with it', async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    await cli(['import', writeExport(dir), '--data-dir', data, '-q']);
    const before = await cli([
      'search',
      'dough',
      'leaven',
      'odour',
      '--data-dir',
      data,
      '--format',
      'json',
    ]);
    expect((JSON.parse(before.stdout) as SearchJson).mode).toBe('keyword');
    const embedded = await cli(['embed', '--data-dir', data]);
    expect(embedded.stdout).toMatch(/embedding 5 conversations?/);
    // The first pass's end is said before the second pass is planned.
    expect(embedded.stdout).toMatch(
      /one vector each[^\n]*\nall 5 conversations can be found by meaning now \(\d+ s in\)[^\n]*\nembedding 5 conversations whole/,
    );
    expect(embedded.stdout).toMatch(/embedded 5 of 5 conversations?/);
    for (const [query, target] of [
      ['my bread leaven has a chemical odour', 'starter'],
      ['containers thrown out during cluster maintenance', 'drain'],
      ['easing off training ahead of a long race', 'taper'],
    ] as const) {
      const { stdout } = await cli([
        'search',
        query,
        '--data-dir',
        data,
        '--format',
        'json',
        '--limit',
        '3',
      ]);
      const result = JSON.parse(stdout) as SearchJson;
      expect(result.mode).toBe('hybrid');
      expect(result.conversations[0]?.platformConversationId).toBe(target);
      expect(result.conversations[0]?.why?.semantic).toBeDefined();
      expect(result.conversations[0]?.best.messageId).not.toBe('');
    }
    const again = await cli(['embed', '--data-dir', data]);
    // Said once, with no summary of zeros after it.
    expect(again.stdout).toMatch(/^nothing to embed: [^\n]*\n$/);
    // On an 80-column terminal, the same sentence in lines that fit it.
    vi.stubEnv('CHATGRAPH_MODEL_DIR', testModelDir());
    const terminal = { ...memoryIo(), terminal: { columns: 80, rows: 24 } };
    await runEmbedCommand({ dataDir: data }, terminal);
    vi.unstubAllEnvs();
    expect(terminal.stdout.length).toBeGreaterThan(1);
    for (const line of terminal.stdout) expect(line.length).toBeLessThanOrEqual(80);
    expect(terminal.stdout.join('\n').replace(/\n {2}/g, ' ')).toBe(again.stdout.trimEnd());
    // A deleted conversation leaves no vector behind: not in the index, not in the cache.
    await cli(['delete', 'starter', '--data-dir', data]);
    const cache = new Database(join(data, 'vectors-cache.sqlite'), { readonly: true });
    const cached = cache.prepare('SELECT text_hash FROM vectors').pluck().all();
    cache.close();
    expect(cached).not.toContain(textHash(TOPICS[0]?.[1] ?? ''));
    expect(cached).toContain(textHash(TOPICS[1]?.[1] ?? ''));
    const { stdout } = await cli([
      'search',
      'nail polish smell',
      '--mode',
      'semantic',
      '--format',
      'json',
      '--data-dir',
      data,
    ]);
    expect(
      (JSON.parse(stdout) as SearchJson).conversations.map((h) => h.platformConversationId),
    ).not.toContain('starter');
  });

  it('says in one line what is missing: no model installed, no vectors yet, a bad mode', async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    await cli(['import', writeExport(dir, TOPICS.slice(0, 1)), '--data-dir', data, '-q']);
    const empty = join(dir, 'no-models');
    mkdirSync(empty);
    const noModel = await cli(['embed', '--data-dir', data], { CHATGRAPH_MODEL_DIR: empty }).catch(
      (error: unknown) => error as { code: number; stderr: string },
    );
    expect('code' in noModel && noModel.code).toBe(2);
    expect('stderr' in noModel ? noModel.stderr : '').toMatch(/chatgraph model fetch/);
    expect(('stderr' in noModel ? noModel.stderr : '').trim().split('\n')).toHaveLength(1);
    const noVectors = await cli([
      'search',
      'bread',
      '--mode',
      'semantic',
      '--data-dir',
      data,
    ]).catch((error: unknown) => error as { code: number; stderr: string });
    expect('stderr' in noVectors ? noVectors.stderr : '').toMatch(/chatgraph embed/);
    const badMode = await cli(['search', 'bread', '--mode', 'fuzzy', '--data-dir', data]).catch(
      (error: unknown) => error as { code: number; stderr: string },
    );
    expect('stderr' in badMode ? badMode.stderr : '').toMatch(
      /--mode fuzzy is not a mode \(modes: keyword, semantic, hybrid\)/,
    );
  });

  it('keeps what an embed killed mid-way had done: the next run takes it from the cache', async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    const many = Array.from({ length: 40 }, (_, i): [string, string, string] => {
      const [, q, a] = TOPICS[i % TOPICS.length] ?? TOPICS[0]!;
      return [`c${String(i)}`, `${q} (case ${String(i)})`, `${a} Note ${String(i)}.`];
    });
    await cli(['import', writeExport(dir, many), '--data-dir', data, '-q']);
    // The embed kills itself (SIGKILL) once 3 conversations' vectors are written.
    const child = spawn(process.execPath, [CRASH_CHILD, 'embed', data, '3'], {
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let finished = '';
    child.stdout.on('data', (chunk: Buffer) => (finished += chunk.toString()));
    const [, signal] = (await once(child, 'exit')) as [number | null, string | null];
    expect(finished).toBe('');
    expect(signal).toBe('SIGKILL');
    const db = new Database(layoutOf(data).store, { readonly: true });
    const count = () => Number(db.prepare('SELECT count(*) FROM vector_state').pluck().get());
    const kept = count();
    db.close();
    expect(kept).toBeGreaterThanOrEqual(3);
    // Ctrl-C (SIGINT) stops the next run cleanly: a summary, exit code 1, what was done kept.
    const interrupted = spawn(process.execPath, [CLI, 'embed', '--data-dir', data], { env });
    let said = '';
    let sent = false;
    interrupted.stdout.on('data', (chunk: Buffer) => {
      said += chunk.toString();
      if (!sent && /embedding \d+ conversation/.test(said)) {
        sent = true;
        interrupted.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((resolve) => {
      interrupted.on('exit', (exitCode) => {
        resolve(exitCode);
      });
    });
    const stopped = /stopped; embedded (\d+) of (\d+) conversations?/.exec(said);
    expect(stopped).not.toBeNull();
    expect(code).toBe(1);
    // What the killed run embedded is in the cache before this run embeds anything: its plan of
    // whole conversations counts at least one cached text for each conversation the killed run
    // finished. (How far this run gets before Ctrl-C is honoured is a matter of timing.)
    const cached = /conversations whole: .*?(\d+) from the cache/.exec(said);
    expect(Number(cached?.[1])).toBeGreaterThanOrEqual(kept);
    const { stdout } = await cli(['embed', '--data-dir', data]);
    expect(stdout).toMatch(/embedding \d+ conversation/);
    // What the interrupted run finished is kept: the next plans the rest, no more.
    const plan = /embedding (\d+) conversation/.exec(stdout);
    expect(Number(plan?.[1])).toBeLessThanOrEqual(Number(stopped?.[2]) - Number(stopped?.[1]));
    const done = /embedded (\d+) of (\d+) conversations?/.exec(stdout);
    expect(done?.[1]).toBe(done?.[2]);
    const search = await cli([
      'search',
      'nail polish smell in my starter',
      '--mode',
      'semantic',
      '--format',
      'json',
      '--data-dir',
      data,
    ]);
    expect((JSON.parse(search.stdout) as SearchJson).conversations.length).toBeGreaterThan(0);
  });
});
