import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from './support/convert-to-temp.js';
import { holdWriteLock } from './support/lock-holder.js';
import { CLI, chatgraph } from './support/run-cli.js';

describe('an import of something that is not an export', () => {
  it('takes back only what it made, never what a writer before it made', async () => {
    const root = tempDir();
    const data = join(root, 'data');
    const notes = join(root, 'notes.txt');
    writeFileSync(notes, 'just some notes');
    // Another writer holds the new folder and writes its bundle while this one waits.
    const holder = await holdWriteLock(data);
    const importing = spawn(process.execPath, [CLI, 'import', notes, '--data-dir', data]);
    let stderr = '';
    const waiting = new Promise<void>((resolve) => {
      importing.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('waiting')) resolve();
      });
    });
    const exited = new Promise<number | null>((resolve) => importing.on('exit', resolve));
    await waiting;
    mkdirSync(join(data, 'bundle', 'conversations'), { recursive: true });
    writeFileSync(join(data, 'bundle', 'conversations', 'kept.json'), '{}');
    holder.kill('SIGKILL');
    const code = await exited;
    expect(stderr).toContain('is not a chat export');
    expect(code).toBe(2);
    expect(existsSync(join(data, 'bundle', 'conversations', 'kept.json'))).toBe(true);
  });

  it('leaves no folder behind when it made the folder', async () => {
    const root = tempDir();
    const data = join(root, 'data');
    const notes = join(root, 'notes.txt');
    writeFileSync(notes, 'just some notes');
    const run = await chatgraph('import', notes, '--data-dir', data);
    expect(run.code).toBe(2);
    expect(existsSync(data)).toBe(false);
  });
});
