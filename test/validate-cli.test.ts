import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pamValidate } from './support/pam-sdk.js';
import { pamSchemaDir } from './support/pam-validator.js';
import { CLI } from './support/run-cli.js';
import { ROOT } from './support/shared.js';

const run = promisify(execFile);
const root = mkdtempSync(join(tmpdir(), 'chatgraph-validate-cli-'));
const base = join(root, 'base');
const SCHEMAS = pamSchemaDir();

const emptyCache = join(root, 'empty-cache');

function validate(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return validateWith({ CHATGRAPH_PAM_SCHEMAS: SCHEMAS }, ...args);
}

async function validateWith(
  env: Record<string, string>,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, 'validate', ...args], {
      env: { ...process.env, ...env },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

function copy(name: string): string {
  const dir = join(root, name);
  cpSync(base, dir, { recursive: true });
  return dir;
}

beforeAll(() => {
  execFileSync(process.execPath, [
    CLI,
    'convert',
    join(ROOT, 'samples', 'claude-export.zip'),
    '-o',
    base,
    '-q',
  ]);
}, 60_000);

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('chatgraph validate', () => {
  it('a valid bundle: exit 0, and a single file too', async () => {
    const all = await validate(base);
    expect(all.code, all.stdout).toBe(0);
    expect(all.stdout).toMatch(/^valid: 19 files, 0 errors, 0 warnings$/m);
    const one = await validate(join(base, 'memory-store.json'));
    expect(one.code).toBe(0);
  });

  it('an error names the file, the JSON path and the rule; exit 1', async () => {
    const dir = copy('bad-hash');
    const file = join(dir, 'memory-store.json');
    const store = JSON.parse(readFileSync(file, 'utf8')) as {
      memories: { content_hash: string }[];
    };
    store.memories[1]!.content_hash = `sha256:${'1'.repeat(64)}`;
    writeFileSync(file, JSON.stringify(store));
    const result = await validate(dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(`${file} $.memories[1].content_hash: [content-hash] memory '`);
    // The hash is part of the memory: the checksum over the memories fails too.
    expect(result.stdout).toContain(`${file} $.integrity.checksum: [integrity-checksum]`);
    expect(result.stdout).toMatch(/^INVALID: 19 files, 2 errors, 0 warnings$/m);
  });

  it('checks what pam validate does not: the index against the files (PAM 14)', async () => {
    const dir = copy('index-title');
    const name = readdirSync(join(dir, 'conversations')).sort()[0]!;
    const file = join(dir, 'conversations', name);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"title": "', '"title": "Renamed '));
    // The official validator reads each file alone: it accepts this bundle.
    expect(pamValidate(dir).status).toBe(0);
    const result = await validate(dir, '--json');
    expect(result.code).toBe(1);
    const report = JSON.parse(result.stdout) as { findings: { rule: string; path: string }[] };
    const title = report.findings.find((f) => f.rule === 'index-file');
    expect(title?.path).toMatch(/^\$\.conversations_index\[\d+\]\.title$/);
  });

  it('checks a signature when there is one (PAM 18)', async () => {
    const dir = copy('signed-badly');
    const file = join(dir, 'memory-store.json');
    const store = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown> & {
      export_date: string;
    };
    store.signature = {
      algorithm: 'Ed25519',
      public_key: 'z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK',
      value: 'A'.repeat(86),
      signed_at: '1999-01-01T00:00:00Z',
    };
    writeFileSync(file, JSON.stringify(store));
    const result = await validate(dir);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain(
      '$.signature.signed_at: [signature] signed_at is before export_date',
    );
    expect(result.stdout).toContain('$.signature.value: [signature] does not verify');
  });

  it('without the schemas it never says valid: deep rules only, schemas not checked, exit 2', async () => {
    const env = { CHATGRAPH_PAM_SCHEMAS: '', PATH: '/nonexistent', XDG_CACHE_HOME: emptyCache };
    const result = await validateWith(env, base);
    expect(result.code).toBe(2);
    expect(result.stdout).not.toMatch(/^valid/m);
    expect(result.stdout.trim()).toBe(
      'deep rules only: schemas not checked: 19 files, 0 errors, 0 warnings',
    );
    expect(result.stderr).toContain('chatgraph validate --fetch-schemas');
    const json = await validateWith(env, base, '--json');
    expect(JSON.parse(json.stdout)).toMatchObject({ valid: false, checked: 'deep rules only' });
    // What the deep rules find still makes it invalid: exit 1.
    const dir = copy('bad-hash-no-schemas');
    const file = join(dir, 'memory-store.json');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(/"sha256:[0-9a-f]{64}"/, `"sha256:${'1'.repeat(64)}"`),
    );
    const bad = await validateWith(env, dir);
    expect(bad.code).toBe(1);
    expect(bad.stdout).toMatch(/^INVALID, deep rules only: schemas not checked: 19 files, [1-9]/m);
  });

  it('--fetch-schemas uses the schemas fetched before, found where it keeps them', async () => {
    // The official package's schema files where --fetch-schemas keeps them (fetching itself is
    // tested against a package index on loopback in src/validate/fetch-schemas.test.ts).
    const cache = join(root, 'cache');
    const kept = join(cache, 'chatgraph', 'pam-schemas', '1.0.0');
    cpSync(SCHEMAS, kept, { recursive: true });
    const env = { CHATGRAPH_PAM_SCHEMAS: '', PATH: '/nonexistent', XDG_CACHE_HOME: cache };
    const fetched = await validateWith(env, base, '--fetch-schemas');
    expect(fetched.code, fetched.stderr).toBe(0);
    expect(fetched.stdout).toMatch(/^valid: 19 files, 0 errors, 0 warnings$/m);
    // Found there on the next run without the flag too.
    const again = await validateWith(env, base, '--json');
    expect(JSON.parse(again.stdout)).toMatchObject({
      valid: true,
      checked: 'schemas and deep rules',
      schemas: kept,
    });
  });

  it('a path that is not there: one line, exit 2', async () => {
    const result = await validate(join(root, 'nothing'));
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      `chatgraph: ${join(root, 'nothing')}: no such file or folder`,
    );
  });
});
