import { execFileSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layoutOf } from '../src/folder/layout.js';
import { importExports } from '../src/data-folder/import-exports.js';
import { writeChatgptExport } from '../src/sample/write-samples.js';
import { tempDir } from './support/convert-to-temp.js';
import { chatgraph } from './support/run-cli.js';
import { Folder } from '../src/folder/folder.js';

const cli = chatgraph;

async function imported(): Promise<{ dir: string; data: string; input: string }> {
  const dir = tempDir();
  const input = join(dir, 'export.zip');
  await writeChatgptExport(input, { seed: 4, conversations: 60 });
  const data = join(dir, 'data');
  await importExports(new Folder(data), [input]);
  return { dir, data, input };
}

// Overwrites every other page after the first few with garbage, as a failing disk would.
function corruptPages(file: string): void {
  const size = statSync(file).size;
  const page = 8192;
  const fd = openSync(file, 'r+');
  try {
    const garbage = Buffer.alloc(page, 0xa5);
    for (let at = 4 * page; at < size; at += 2 * page) writeSync(fd, garbage, 0, page, at);
  } finally {
    closeSync(fd);
  }
}

function stats(data: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return cli('stats', '--format', 'json', '--data-dir', data);
}

describe('a damaged store (compiled CLI)', () => {
  it('every command says so in one sentence, and plain reindex moves it aside and rebuilds it', async () => {
    const { data, input } = await imported();
    const file = layoutOf(data).store;
    const before = JSON.parse((await stats(data)).stdout) as { conversations: number };
    expect(before.conversations).toBe(60);
    corruptPages(file);
    for (const args of [
      ['stats'],
      ['search', 'the'],
      ['query', 'MATCH (c:Conversation) RETURN count(c) AS n'],
      ['import', input],
    ]) {
      const result = await cli(...args, '--data-dir', data);
      expect(result.code, `${args[0] ?? ''}: ${result.stderr}`).toBe(2);
      const lines = result.stderr.trim().split('\n');
      expect(lines, args[0]).toHaveLength(1);
      expect(lines[0]).toContain(`the store ${file} is damaged`);
      expect(lines[0]).toContain('chatgraph reindex');
    }
    const rebuilt = await cli('reindex', '-q', '--data-dir', data);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.stdout).toContain('moved aside to');
    expect(rebuilt.stdout).toContain('re-indexed 60 conversations');
    const aside = readdirSync(data).filter((name) => name.startsWith('chatgraph.sqlite.damaged-'));
    expect(aside).toHaveLength(1);
    expect(JSON.parse((await stats(data)).stdout)).toEqual(before);
    const search = await cli('search', 'the', '--format', 'json', '--data-dir', data);
    expect(search.code).toBe(0);
    // A sound store is rebuilt in place: nothing more is moved aside.
    expect((await cli('reindex', '-q', '--data-dir', data)).stdout).not.toContain('moved aside');
    expect(readdirSync(data).filter((n) => n.includes('.damaged-'))).toEqual(aside);
  });

  it('a file that is not a database at all is named the same way', async () => {
    const { data } = await imported();
    const fd = openSync(layoutOf(data).store, 'r+');
    writeSync(fd, Buffer.from('this is not SQLite at all, just text over the header'), 0, 52, 0);
    closeSync(fd);
    const result = await stats(data);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`the store ${layoutOf(data).store} is damaged`);
    const rebuilt = await cli('reindex', '-q', '--data-dir', data);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(JSON.parse((await stats(data)).stdout)).toMatchObject({ conversations: 60 });
  });

  it('a store emptied to zero bytes is damage, not an empty store: reindex rebuilds it whole', async () => {
    const { data, input } = await imported();
    const file = layoutOf(data).store;
    const before = JSON.parse((await stats(data)).stdout) as { conversations: number };
    truncateSync(file, 0);
    for (const args of [['stats'], ['search', 'the'], ['import', input]]) {
      const result = await cli(...args, '--data-dir', data);
      expect(result.code, `${args[0] ?? ''}: ${result.stderr}`).toBe(2);
      expect(result.stderr.trim().split('\n')).toEqual([
        `chatgraph: the store ${file} is damaged (it is an empty file of 0 bytes): run "chatgraph reindex" to move it aside and rebuild it from the bundle`,
      ]);
    }
    const rebuilt = await cli('reindex', '-q', '--data-dir', data);
    expect(rebuilt.code, rebuilt.stderr).toBe(0);
    expect(rebuilt.stdout).toContain('moved aside to');
    expect(rebuilt.stdout).toContain('re-indexed 60 conversations');
    expect(JSON.parse((await stats(data)).stdout)).toEqual(before);
  });
});

// Root ignores permissions; an immutable folder (chattr +i) is read-only even for root.
function makeImmutable(dir: string, on: boolean): boolean {
  try {
    execFileSync('chattr', [on ? '+i' : '-i', dir], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

describe('a read-only data folder', () => {
  it('still serves search, thread, query and stats', async () => {
    const { data } = await imported();
    const readOnly =
      process.getuid?.() === 0
        ? makeImmutable(data, true)
        : (() => {
            execFileSync('chmod', ['a-w', data]);
            return true;
          })();
    if (!readOnly) return expect.fail('could not make the data folder read-only (chattr or chmod)');
    try {
      expect(existsSync(`${layoutOf(data).store}-shm`)).toBe(false);
      const s = await cli('stats', '--format', 'json', '--data-dir', data);
      expect(s.code, s.stderr).toBe(0);
      expect(JSON.parse(s.stdout)).toMatchObject({ conversations: 60 });
      const search = await cli('search', 'the', '--format', 'json', '--data-dir', data);
      expect(search.code, search.stderr).toBe(0);
      const hits = (JSON.parse(search.stdout) as { conversations: { conversationId: string }[] })
        .conversations;
      expect(hits.length).toBeGreaterThan(0);
      const thread = await cli('thread', hits[0]?.conversationId ?? '', '--data-dir', data);
      expect(thread.code, thread.stderr).toBe(0);
      const query = await cli(
        'query',
        'MATCH (c:Conversation) RETURN count(c) AS n',
        '--format',
        'json',
        '--data-dir',
        data,
      );
      expect(query.code, query.stderr).toBe(0);
      expect(JSON.parse(query.stdout)).toEqual([{ n: 60 }]);
    } finally {
      if (process.getuid?.() === 0) makeImmutable(data, false);
      else execFileSync('chmod', ['u+w', data]);
    }
  });
});
