import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pamSchemaDir } from '../../test/support/pam-validator.js';
import { ZipWriter } from '../sample/zip-writer.js';
import { PAM_SCHEMA_PINS, fetchPamSchemas, fetchedSchemaDir } from './fetch-schemas.js';
import { findSchemaDir } from './json-schemas.js';

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');
const WHEEL = PAM_SCHEMA_PINS[0]?.wheel ?? '';

/**
 * A package index on a loopback port speaking PyPI's JSON simple API, serving one wheel: the
 * official package's schema files (read from .venv-pam, where `npm run provision` installs
 * the package), or a tampered copy of them.
 */
class Index {
  wheel: Buffer = Buffer.alloc(0);
  requests = 0;
  private server!: Server;
  base = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      this.requests++;
      if (request.url === '/simple/portable-ai-memory/') {
        response.writeHead(200, { 'content-type': 'application/vnd.pypi.simple.v1+json' });
        response.end(
          JSON.stringify({
            files: [
              { filename: WHEEL, url: `/files/${WHEEL}`, hashes: { sha256: sha256(this.wheel) } },
            ],
          }),
        );
        return;
      }
      if (request.url === `/files/${WHEEL}`) {
        response.writeHead(200, { 'content-length': String(this.wheel.length) });
        response.end(this.wheel);
        return;
      }
      response.writeHead(404);
      response.end();
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${String((this.server.address() as AddressInfo).port)}`;
  }

  async stop(): Promise<void> {
    await new Promise((resolve) => this.server.close(resolve));
  }
}

async function wheelOf(
  dir: string,
  change?: (name: string, text: string) => string,
): Promise<Buffer> {
  const path = join(dir, `${String(Math.random()).slice(2)}.whl`);
  const zip = new ZipWriter(path);
  for (const pin of PAM_SCHEMA_PINS) {
    const text = readFileSync(join(pamSchemaDir(), pin.file), 'utf8');
    await zip.add(pin.member, change ? change(pin.file, text) : text);
  }
  await zip.add('portable_ai_memory/__init__.py', '');
  await zip.close();
  return readFileSync(path);
}

let work = '';
const index = new Index();

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'chatgraph-fetch-schemas-'));
  await index.start();
});

afterAll(async () => {
  await index.stop();
  await rm(work, { recursive: true, force: true });
});

describe('fetchPamSchemas', () => {
  it('fetches the three schemas, each checked against its pinned sha256, and keeps them', async () => {
    index.wheel = await wheelOf(work);
    // The test's wheel is not PyPI's byte for byte: its own sha256 is pinned, the members' are not.
    const pins = PAM_SCHEMA_PINS.map((pin) => ({ ...pin, wheelSha256: sha256(index.wheel) }));
    const dir = join(work, 'kept');
    const fetched = await fetchPamSchemas({ dir, index: index.base, pins });
    expect(fetched.alreadyThere).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(PAM_SCHEMA_PINS.map((p) => p.file).sort());
    for (const pin of PAM_SCHEMA_PINS) {
      expect(sha256(readFileSync(join(dir, pin.file)))).toBe(pin.sha256);
      expect(fetched.checks.join('\n')).toContain(pin.sha256);
    }
    const asked = index.requests;
    const again = await fetchPamSchemas({ dir, index: index.base, pins });
    expect(again.alreadyThere).toBe(true);
    expect(index.requests).toBe(asked);
  });

  it('refuses a schema that is not the pinned one, and keeps nothing of it', async () => {
    index.wheel = await wheelOf(work, (name, text) =>
      name === 'portable-ai-memory.schema.json' ? text.replace('"type"', '"type" ') : text,
    );
    const pins = PAM_SCHEMA_PINS.map((pin) => ({ ...pin, wheelSha256: sha256(index.wheel) }));
    const dir = join(work, 'tampered');
    await expect(fetchPamSchemas({ dir, index: index.base, pins })).rejects.toThrow(
      /checksum mismatch: portable_ai_memory\/schemas\/portable-ai-memory\.schema\.json/,
    );
    expect(existsSync(dir)).toBe(false);
    expect(readdirSync(work).filter((name) => name.includes('.part-'))).toEqual([]);
  });

  it('refuses a wheel the index lists with another sha256 than the pinned one', async () => {
    index.wheel = await wheelOf(work);
    await expect(
      fetchPamSchemas({ dir: join(work, 'other-wheel'), index: index.base }),
    ).rejects.toThrow(/not the pinned dbdb1cb4/);
  });

  it('is where validate looks for them after the Python package', () => {
    const env = {
      XDG_CACHE_HOME: join(work, 'xdg'),
      CHATGRAPH_PAM_SCHEMAS: '',
      PATH: '/nonexistent',
    };
    expect(fetchedSchemaDir(env)).toBe(join(work, 'xdg', 'chatgraph', 'pam-schemas', '1.0.0'));
    expect(findSchemaDir(undefined, env)).toBeUndefined();
  });
});
