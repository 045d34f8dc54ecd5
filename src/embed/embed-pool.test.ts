import { execFile } from 'node:child_process';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { testModelDir } from '../../test/support/embedding-model.js';
import { embedWorkers, WORKERS_ENV } from './local-embedder.js';
import { openEmbedder } from './open-embedder.js';

const run = promisify(execFile);
const DIST = pathToFileURL(
  join(import.meta.dirname, '..', '..', 'dist', 'embed', 'open-embedder.js'),
).href;
const POOL = pathToFileURL(
  join(import.meta.dirname, '..', '..', 'dist', 'embed', 'embed-pool.js'),
).href;
const SESSION = pathToFileURL(
  join(import.meta.dirname, '..', '..', 'dist', 'embed', 'onnx-session.js'),
).href;

/**
 * Worker threads need the compiled worker script, so the pool is driven from a child process on
 * dist/ (as the CLI runs it); the child prints what it saw as JSON and must exit on its own.
 */
const CHILD = `
import { openEmbedder } from ${JSON.stringify(DIST)};
import { EmbedPool } from ${JSON.stringify(POOL)};
import { openSessionRunner } from ${JSON.stringify(SESSION)};
const [modelDir, folder] = process.argv.slice(2);
const texts = Array.from({ length: 40 }, (_, i) =>
  \`text \${i}: \${'the sourdough starter wants feeding twice a day '.repeat(i % 9)}and kubernetes\`);
const diff = (a, b) => Math.max(...a.map((v, i) => Math.max(...v.map((x, j) => Math.abs(x - b[i][j])))));
// A model that does not load, in this thread and in the workers.
const failure = async (open) => {
  try {
    await open({ folder, pooling: 'mean', threads: 1 });
    return undefined;
  } catch (error) {
    return { name: error.name, message: error.message, model: error.constructor.name };
  }
};
const one = await openEmbedder({ modelDir, workers: 1 });
const single = await one.embed(texts);
await one.close();
const pool = await openEmbedder({ modelDir, workers: 2 });
const whole = await pool.embed(texts);
// Two calls at once share the workers; each gets its own texts' vectors, in order.
const [first, second] = await Promise.all([pool.embed(texts.slice(0, 25)), pool.embed(texts.slice(25))]);
const aborted = await pool.embed(texts, { signal: AbortSignal.abort() }).then(() => false, () => true);
const after = await pool.embed(texts.slice(0, 3));
await pool.close();
const closed = await pool.embed(['x']).then(() => 'embedded', (error) => error.message);
// A pool never closed (its workers started by a call of several batches) must not keep the
// process from ending.
const open = await openEmbedder({ modelDir, workers: 2 });
await open.embed(texts);
process.stdout.write(JSON.stringify({
  workers: [one.workers, pool.workers],
  dimensions: whole[0].length,
  count: whole.length,
  whole: diff(whole, single),
  concurrent: diff([...first, ...second], single),
  after: diff(after, single.slice(0, 3)),
  aborted,
  closed,
  broken: [await failure(openSessionRunner), await failure((spec) => EmbedPool.open(spec, 2))],
}));
`;

const failureSchema = z.object({ name: z.string(), message: z.string(), model: z.string() });
const seenSchema = z.object({
  workers: z.array(z.number()),
  dimensions: z.number(),
  count: z.number(),
  whole: z.number(),
  concurrent: z.number(),
  after: z.number(),
  aborted: z.boolean(),
  closed: z.string(),
  broken: z.array(failureSchema.optional().nullable()),
});

describe('the embedding pool (compiled code, real all-MiniLM-L6-v2)', () => {
  let dir: string;
  let seen: z.infer<typeof seenSchema>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chatgraph-pool-'));
    const probe = await openEmbedder({ modelDir: testModelDir(), workers: 1 });
    const id = probe.model.id;
    await probe.close();
    // A model folder whose weights are not an ONNX model: the session fails to load.
    const broken = join(dir, 'broken');
    await cp(join(testModelDir(), id), broken, { recursive: true });
    await rm(join(broken, 'manifest.json'));
    await writeFile(join(broken, 'model.onnx'), 'not an onnx model');
    const child = join(dir, 'child.mjs');
    await writeFile(child, CHILD);
    // A timeout fails the test when the pool keeps the process alive.
    const { stdout } = await run(process.execPath, [child, testModelDir(), broken], {
      timeout: 90_000,
      maxBuffer: 1 << 24,
    });
    seen = seenSchema.parse(JSON.parse(stdout));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('runs one session in the thread for 1 worker, and as many workers as asked', () => {
    expect(seen.workers).toEqual([1, 2]);
  });

  it('gives exactly the single session’s vectors, in the texts’ order', () => {
    expect(seen.count).toBe(40);
    expect(seen.dimensions).toBe(384);
    expect(seen.whole).toBe(0);
    expect(seen.concurrent).toBe(0);
  });

  it('stops before its batches when aborted, and embeds again afterwards', () => {
    expect(seen.aborted).toBe(true);
    expect(seen.after).toBe(0);
  });

  it('refuses to embed once closed', () => {
    expect(seen.closed).toBe('the embedder is closed');
  });

  it('fails to load a broken model as the single session does', () => {
    const [single, pooled] = seen.broken;
    expect(single?.message).toMatch(/model\.onnx|protobuf|load/i);
    expect(pooled).toEqual(single);
  });
});

describe('the number of embedding workers', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  it('is the option, else the environment’s, else one from sources (no compiled worker)', () => {
    vi.stubEnv(WORKERS_ENV, '');
    expect(embedWorkers()).toBe(1);
    vi.stubEnv(WORKERS_ENV, '3');
    expect(embedWorkers()).toBe(3);
    expect(embedWorkers(2)).toBe(2);
  });

  it('refuses an environment value that is no number of workers', () => {
    for (const value of ['0', 'two', '1.5']) {
      vi.stubEnv(WORKERS_ENV, value);
      expect(() => embedWorkers()).toThrow(
        `${WORKERS_ENV} must be a whole number of workers, 1 or more (not "${value}")`,
      );
    }
  });

  it('says that worker threads need the compiled build when run from sources', async () => {
    await expect(openEmbedder({ modelDir: testModelDir(), workers: 2 })).rejects.toThrow(
      'embedding workers need the compiled build (npm run build)',
    );
  });
});
