import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  bin: { chatgraph: string };
};
// The file users run, as `npm install -g` links it.
const CLI = join(ROOT, pkg.bin.chatgraph);
const PROBE = join(ROOT, 'test', 'support', 'load-probe.mjs');

interface Run {
  stdout: string;
  codeCache: { cache: string; accepted: boolean } | null;
}

/** `chatgraph --help` with the load probe: its output and what it told of the code cache. */
async function help(cacheHome: string): Promise<Run> {
  const probe = join(cacheHome, `loads-${String(Math.random()).slice(2)}.json`);
  const { stdout } = await run(process.execPath, ['--import', PROBE, CLI, '--help'], {
    env: { ...process.env, XDG_CACHE_HOME: cacheHome, CHATGRAPH_LOAD_PROBE: probe },
  });
  const { codeCache } = JSON.parse(readFileSync(probe, 'utf8')) as Pick<Run, 'codeCache'>;
  return { stdout, codeCache };
}

// Not timed (the benchmark is bench/cold-search.mjs): that the cache is written, taken, and that
// a damaged one is ignored and written again rather than run (V8 ran damaged code to a fatal
// error before the loader asked it to check: src/cli/code-cache.ts).
describe('the CLI code cache (issue 46)', () => {
  it('is written at the first run, taken at the next; a damaged one is ignored and rewritten', async () => {
    const home = tempDir();
    const first = await help(home);
    expect(first.codeCache).toMatchObject({ accepted: false });
    const cache = first.codeCache?.cache ?? '';
    expect(cache.startsWith(join(home, 'chatgraph', 'code'))).toBe(true);
    expect(statSync(cache).size).toBeGreaterThan(10_000);

    const second = await help(home);
    expect(second.codeCache).toEqual({ cache, accepted: true });
    expect(second.stdout).toBe(first.stdout);

    // Damaged in its middle (what V8 does not check by itself), then cut short.
    const bytes = readFileSync(cache);
    for (let i = bytes.length >> 1; i < (bytes.length >> 1) + 64; i++) bytes[i] = ~bytes[i]! & 0xff;
    writeFileSync(cache, bytes);
    const damaged = await help(home);
    expect(damaged.codeCache).toEqual({ cache, accepted: false });
    expect(damaged.stdout).toBe(first.stdout);
    writeFileSync(cache, bytes.subarray(0, 1000));
    const cut = await help(home);
    expect(cut.codeCache).toEqual({ cache, accepted: false });
    expect(cut.stdout).toBe(first.stdout);

    // Written again whole: taken.
    expect((await help(home)).codeCache).toEqual({ cache, accepted: true });
    expect(readdirSync(join(home, 'chatgraph', 'code')).filter((f) => f.endsWith('.tmp'))).toEqual(
      [],
    );
  });
});
