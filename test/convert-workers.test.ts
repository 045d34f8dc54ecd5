import { execFile } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { writeChatgptExport } from '../src/sample/write-samples.js';
import { tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';

const CHILD = join(ROOT, 'test', 'support', 'convert-workers-child.mjs');
const run = promisify(execFile);

// Every file of a bundle, by path, as bytes.
function filesOf(dir: string): Map<string, Buffer> {
  const names = readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort();
  return new Map(
    names
      .filter((name) => statSync(join(dir, name)).isFile())
      .map((name) => [name, readFileSync(join(dir, name))]),
  );
}

async function convertWith(workers: number, dir: string, inputs: string[]) {
  const out = join(dir, `bundle-${workers}`);
  const record = join(dir, `record-${workers}.json`);
  await run(process.execPath, [CHILD, String(workers), out, record, ...inputs], {
    maxBuffer: 1 << 26,
  });
  return { files: filesOf(out), record: readFileSync(record, 'utf8') };
}

describe('conversion on worker threads (compiled code)', () => {
  it('writes the same bundle, byte for byte, and hands the store the same as inline', async () => {
    expect(existsSync(join(ROOT, 'dist', 'index.js'))).toBe(true);
    const dir = tempDir();
    const generated = join(dir, 'chatgpt.zip');
    // Enough conversations that many records are in flight on several workers at once.
    await writeChatgptExport(generated, { seed: 11, conversations: 700 });
    const inputs = [
      generated,
      join(ROOT, 'samples', 'claude-export.zip'),
      join(ROOT, 'samples', 'claude-code'),
    ];
    const inline = await convertWith(0, dir, inputs);
    const parallel = await convertWith(3, dir, inputs);
    expect(inline.files.size).toBeGreaterThan(700);
    expect([...parallel.files.keys()]).toEqual([...inline.files.keys()]);
    for (const [name, bytes] of inline.files)
      expect(parallel.files.get(name)?.equals(bytes), name).toBe(true);
    // The store's graph batches, hashes and order, and the report, as inline.
    const { stored } = z
      .object({ stored: z.array(z.object({ batch: z.object({ hash: z.string() }).optional() })) })
      .parse(JSON.parse(inline.record));
    expect(stored.filter((s) => s.batch !== undefined).length).toBeGreaterThan(700);
    expect(parallel.record).toBe(inline.record);
  });
});
