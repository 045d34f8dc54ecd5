import { execFile, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { DataFolder } from '../src/index.js';
import { readSigningKey } from '../src/api/trust.js';
import { createServer } from '../src/mcp/create-server.js';
import { startWebApp } from '../src/web/web-server.js';
import { raw } from './support/web-request.js';
import { importSamples } from './support/bundled-samples.js';
import { pamValidate } from './support/pam-sdk.js';
import { provisioned } from './support/provisioned.js';
import { CLI } from './support/run-cli.js';
import { ROOT } from './support/shared.js';

const run = promisify(execFile);
// The independent verifier: Python `cryptography` and `rfc8785`, written from PAM §18 alone.
const PYTHON = provisioned('.venv-sign', 'bin', 'python');
const CHECK = join(ROOT, 'test', 'python', 'pam_signature_check.py');

const root = mkdtempSync(join(tmpdir(), 'chatgraph-sign-'));
const env = { ...process.env, XDG_CONFIG_HOME: join(root, 'config') };

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [CLI, ...args], { env });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

function pythonVerdict(bundle: string): { status: number | null; output: string } {
  const result = spawnSync(PYTHON, [CHECK, join(bundle, 'memory-store.json')], {
    encoding: 'utf8',
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() };
}

/** A copy of the signed data folder to break. */
function copyOf(name: string): string {
  const copy = join(root, name);
  cpSync(signed, copy, { recursive: true });
  return copy;
}

type Json = Record<string, unknown> & { memories: Record<string, unknown>[] };

function editStore(dataDir: string, edit: (store: Json) => void): void {
  const file = join(dataDir, 'bundle', 'memory-store.json');
  const store = JSON.parse(readFileSync(file, 'utf8')) as Json;
  edit(store);
  writeFileSync(file, `${JSON.stringify(store, null, 2)}\n`);
}

const signed = join(root, 'signed');

/** Changes the first conversation file of a copy after it was signed; gives its path. */
function changeOneConversation(dataDir: string): string {
  const dir = join(dataDir, 'bundle', 'conversations');
  const file = join(dir, readdirSync(dir).sort()[0]!);
  writeFileSync(file, readFileSync(file, 'utf8').replace('"title": "', '"title": "Edited '));
  return file;
}

beforeAll(async () => {
  importSamples(signed);
  const made = await cli('key', 'new');
  expect(made.code, made.stderr).toBe(0);
  const sign = await cli('sign', '--data-dir', signed);
  expect(sign.code, sign.stderr).toBe(0);
}, 120_000);

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('chatgraph sign', () => {
  it('keeps the private key in the config folder, readable by its owner alone', async () => {
    const key = join(root, 'config', 'chatgraph', 'keys', 'default.pem');
    expect(statSync(key).mode & 0o777).toBe(0o600);
    expect(statSync(join(root, 'config', 'chatgraph', 'keys')).mode & 0o777).toBe(0o700);
    expect(readFileSync(key, 'utf8')).toContain('BEGIN PRIVATE KEY');
    // Nothing of the key in the data folder: only its public half, in the signature.
    const shown = await cli('key', 'show');
    const publicKey = /public key: (z6Mk\w+)/.exec(shown.stdout)?.[1];
    expect(publicKey).toBeDefined();
    const store = JSON.parse(readFileSync(join(signed, 'bundle', 'memory-store.json'), 'utf8')) as {
      signature: Record<string, string>;
    };
    expect(store.signature.public_key).toBe(publicKey);
    expect(store.signature.key_id).toBe(`did:key:${publicKey}#${publicKey}`);
    expect(store.signature.algorithm).toBe('Ed25519');
    const again = await cli('key', 'new');
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('exists already');
    // Another name is another key; --replace makes a new one in its place.
    const other = await cli('key', 'new', '--key', 'work');
    const replaced = await cli('key', 'new', '--key', 'work', '--replace');
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(/public key: (\S+)/.exec(replaced.stdout)?.[1]).not.toBe(
      /public key: (\S+)/.exec(other.stdout)?.[1],
    );
    expect((await cli('key', 'new', '--key', '../escape')).code).toBe(2);
  });

  it('writes a bundle the official validator still accepts', () => {
    const { status, output } = pamValidate(join(signed, 'bundle'));
    expect(output).toMatch(/\b0 invalid\b/);
    expect(status).toBe(0);
  });

  it('verifies with an independent implementation of PAM section 18, and with chatgraph verify', async () => {
    expect(pythonVerdict(join(signed, 'bundle'))).toEqual({ status: 0, output: 'verified' });
    const verify = await cli('verify', '--data-dir', signed);
    expect(verify.code, verify.stderr).toBe(0);
    expect(verify.stdout).toMatch(
      /signature verified by z6Mk\w+ at .*: \d+ memories and \d+ files unchanged/,
    );
  });
});

describe('a signed bundle changed', () => {
  it('one memory changed: the Python verifier and chatgraph verify fail, naming the memory', async () => {
    const data = copyOf('memory-changed');
    let id = '';
    editStore(data, (store) => {
      const memory = store.memories[0]!;
      id = String(memory.id);
      memory.content = `${String(memory.content)} (changed)`;
    });
    expect(pythonVerdict(join(data, 'bundle'))).toMatchObject({ status: 1 });
    expect(pythonVerdict(join(data, 'bundle')).output).toContain('integrity.checksum');
    const verify = await cli('verify', join(data, 'bundle'));
    expect(verify.code).toBe(1);
    expect(verify.stderr).toContain(`memory ${id} changed after signing`);
    expect(verify.stderr).toContain('$.integrity.checksum');
  });

  it('one memory changed and the checksum made again: the signature itself fails in Python', async () => {
    const data = copyOf('memory-rehashed');
    const python = spawnSync(
      PYTHON,
      [
        '-c',
        [
          'import hashlib, json, sys, rfc8785',
          'f = sys.argv[1]; s = json.load(open(f))',
          's["memories"][0]["content"] += " (changed)"',
          'ms = sorted(s["memories"], key=lambda m: m["id"])',
          's["integrity"]["checksum"] = "sha256:" + hashlib.sha256(rfc8785.dumps(ms)).hexdigest()',
          'json.dump(s, open(f, "w"), indent=2)',
        ].join('\n'),
        join(data, 'bundle', 'memory-store.json'),
      ],
      { encoding: 'utf8' },
    );
    expect(python.status, python.stderr).toBe(0);
    expect(pythonVerdict(join(data, 'bundle'))).toEqual({
      status: 1,
      output: 'failed: the signature does not match the payload',
    });
    const verify = await cli('verify', join(data, 'bundle'), '--json');
    expect(verify.code).toBe(1);
    const report = JSON.parse(verify.stdout) as { verdict: string; problems: { path?: string }[] };
    expect(report.verdict).toBe('failed');
    expect(report.problems.map((p) => p.path)).toContain('$.signature.value');
  });

  it('one conversation file changed: chatgraph verify fails and names the file', async () => {
    const data = copyOf('conversation-changed');
    const dir = join(data, 'bundle', 'conversations');
    const name = readdirSync(dir).sort()[0]!;
    const file = join(dir, name);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"title": "', '"title": "Edited '));
    // PAM's own signature covers the memories only: the spec's check still passes.
    expect(pythonVerdict(join(data, 'bundle'))).toEqual({ status: 0, output: 'verified' });
    const verify = await cli('verify', '--data-dir', data);
    expect(verify.code).toBe(1);
    expect(verify.stderr).toContain(`${file}: changed after signing`);
    expect(verify.stdout).toContain('signature FAILED');
  });

  it('a conversation file added or removed is named too', async () => {
    const data = copyOf('conversation-added');
    const dir = join(data, 'bundle', 'conversations');
    const [first, second] = readdirSync(dir).sort();
    cpSync(join(dir, first!), join(dir, 'extra.json'));
    rmSync(join(dir, second!));
    const verify = await cli('verify', '--data-dir', data);
    expect(verify.code).toBe(1);
    expect(verify.stderr).toContain(`${join(dir, 'extra.json')}: was added after signing`);
    expect(verify.stderr).toContain(`${join(dir, second!)}: was signed and is missing`);
  });

  it('the manifest and the conversations removed, an attachment changed: verify fails, naming them', async () => {
    const data = copyOf('manifest-removed');
    const bundle = join(data, 'bundle');
    rmSync(join(bundle, 'signature-manifest.json'));
    rmSync(join(bundle, 'conversations'), { recursive: true });
    writeFileSync(join(bundle, 'attachments', 'new.exe'), 'not what was signed');
    const verify = await cli('verify', bundle);
    expect(verify.code).toBe(1);
    expect(verify.stderr).toContain('signature-manifest.json: is missing');
    expect(verify.stderr).toMatch(/covered by no signature/);
    expect(verify.stderr).toContain('attachments/');
    expect(verify.stdout).toContain('signature FAILED');
  });

  it('the manifest edited to match a changed file: its own signature fails', async () => {
    const data = copyOf('manifest-edited');
    const manifestFile = join(data, 'bundle', 'signature-manifest.json');
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as {
      files: Record<string, string>;
    };
    const ref = Object.keys(manifest.files).find((f) => f.startsWith('conversations/'))!;
    manifest.files[ref] = `sha256:${'0'.repeat(64)}`;
    writeFileSync(manifestFile, JSON.stringify(manifest));
    const verify = await cli('verify', '--data-dir', data);
    expect(verify.code).toBe(1);
    expect(verify.stderr).toContain('the manifest');
  });
});

describe('a signed bundle written again', () => {
  it('remember drops the signature: verify says unsigned since, never a stale pass', async () => {
    const data = copyOf('remembered');
    const remember = await cli('remember', '--data-dir', data, '--type', 'fact', 'tea, not coffee');
    expect(remember.code, remember.stderr).toBe(0);
    expect(existsSync(join(data, 'bundle', 'memory-journal.jsonl'))).toBe(false);
    const store = JSON.parse(
      readFileSync(join(data, 'bundle', 'memory-store.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(store.signature).toBeUndefined();
    const verify = await cli('verify', '--data-dir', data);
    expect(verify.code).toBe(1);
    expect(verify.stdout).toMatch(
      /unsigned since \S+ \(signed at \S+, then written again: run chatgraph sign\)/,
    );
    const resign = await cli('sign', '--data-dir', data);
    expect(resign.code, resign.stderr).toBe(0);
    expect((await cli('verify', '--data-dir', data)).code).toBe(0);
    expect(pythonVerdict(join(data, 'bundle')).status).toBe(0);
  });

  it('import into a signed folder whose bundle was changed warns first, and says it is unsigned after', async () => {
    const data = copyOf('import-over');
    const dir = join(data, 'bundle', 'conversations');
    const file = join(dir, readdirSync(dir).sort()[0]!);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"title": "', '"title": "Edited '));
    const imported = await cli(
      'import',
      '--data-dir',
      data,
      '-q',
      join(ROOT, 'samples', 'chatgpt-export.zip'),
    );
    expect(imported.stderr).toContain('warning: the signature of');
    expect(imported.stderr).toContain(`${file}: changed after signing`);
    expect(imported.stderr).toContain('unsigned now');
  });

  // The notes are the folder's verbs' (data-folder/signature-notes.ts), not the CLI's: the web
  // app's upload (folder.import) and an agent's memory (folder.remember) get them too.
  it('the folder verbs report the notes as data, for every shell', async () => {
    const data = copyOf('verbs');
    const dir = join(data, 'bundle', 'conversations');
    const file = join(dir, readdirSync(dir).sort()[0]!);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"title": "', '"title": "Edited '));
    const folder = await DataFolder.open(data);
    try {
      const report = await folder.import([join(ROOT, 'samples', 'chatgpt-export.zip')]);
      const failed = report.problems.find((g) => g.code === 'bundle-signature-failed');
      expect(failed?.level).toBe('warning');
      const changed = failed?.examples.find((e) => e.file === file);
      expect(changed?.message).toContain('changed after signing');
      expect(report.problems.find((g) => g.code === 'bundle-signature-dropped')?.level).toBe(
        'info',
      );
      // Unsigned now: the next write has nothing to say.
      const { notes } = await folder.remember({ content: 'tea, not coffee', type: 'fact' });
      expect(notes).toEqual([]);
    } finally {
      await folder.close();
    }
    const again = await DataFolder.open(copyOf('verbs-remember'));
    try {
      const { notes } = await again.remember({ content: 'tea, not coffee', type: 'fact' });
      expect(notes.map((n) => [n.level, n.code])).toEqual([['info', 'bundle-signature-dropped']]);
    } finally {
      await again.close();
    }
  });

  // Issue 40, "Done when": the web app and an agent over MCP get the notes the CLI says, for
  // each memory write (remember, revise, forget), from the verbs themselves.
  it('the web app answers and the MCP tools say the same notes, on every memory write', async () => {
    const keyFile = join(root, 'config', 'chatgraph', 'keys', 'default.pem');
    const data = copyOf('shells');
    const changed = changeOneConversation(data);
    const folder = await DataFolder.open(data);
    const app = await startWebApp({ folder, port: 0 });
    type Notes = { notes: { level: string; code: string; file?: string; message: string }[] };
    const send = async <T>(method: string, path: string, body?: unknown): Promise<T & Notes> => {
      const answer = await raw(app, path, {
        method,
        ...(body !== undefined
          ? { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }
          : {}),
      });
      expect(answer.status, answer.body).toBe(method === 'POST' ? 201 : 200);
      return JSON.parse(answer.body) as T & Notes;
    };
    const dropped = [['info', 'bundle-signature-dropped']];
    const codes = (answer: Notes) => answer.notes.map((n) => [n.level, n.code]);
    try {
      // Changed after signing: the failure first, naming the file, then the signature dropped.
      const made = await send<{ memory: { id: string } }>('POST', '/api/memories', {
        content: 'tea, not coffee',
        type: 'preference',
      });
      expect(codes(made)).toEqual([['warning', 'bundle-signature-failed'], ...dropped]);
      expect(made.notes[0]?.file).toBe(changed);
      expect(made.notes[0]?.message).toContain('changed after signing');
      await folder.sign(await readSigningKey(keyFile));
      const revised = await send<{ memory: { id: string } }>(
        'PUT',
        `/api/memories/${made.memory.id}`,
        { content: 'green tea, not coffee' },
      );
      expect(codes(revised)).toEqual(dropped);
      await folder.sign(await readSigningKey(keyFile));
      expect(codes(await send('DELETE', `/api/memories/${revised.memory.id}`))).toEqual(dropped);
      // Unsigned now: nothing to say.
      const plain = await send('POST', '/api/memories', { content: 'oat milk', type: 'fact' });
      expect(plain.notes).toEqual([]);
    } finally {
      await app.close();
      await folder.close();
    }

    const mcpData = copyOf('mcp');
    const mcpChanged = changeOneConversation(mcpData);
    const mcpFolder = await DataFolder.open(mcpData);
    const server = await createServer(mcpFolder);
    const client = new Client({ name: 'signature-notes', version: '1.0.0' });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
    const text = async (name: string, args: Record<string, unknown>): Promise<string> => {
      const result = (await client.callTool({ name, arguments: args })) as {
        content: { text: string }[];
        structuredContent?: { id?: string };
        isError?: boolean;
      };
      expect(result.isError, result.content[0]?.text).not.toBe(true);
      return result.content.map((c) => c.text).join('\n');
    };
    try {
      const said = await text('remember', { content: 'tea, not coffee', type: 'preference' });
      expect(said).toContain(`warning: the bundle's signature fails: ${mcpChanged}`);
      expect(said).toContain('changed after signing');
      expect(said).toContain(
        'note: the bundle was signed and is written again, so it is unsigned now',
      );
      const [memory] = (await mcpFolder.memories({ query: 'tea' })).items;
      await mcpFolder.sign(await readSigningKey(keyFile));
      const forgot = await text('forget', { id: memory?.id ?? '' });
      expect(forgot).toMatch(/^Forgot memory /);
      expect(forgot).toContain(
        'note: the bundle was signed and is written again, so it is unsigned now',
      );
    } finally {
      await client.close();
      await mcpFolder.close();
    }
  });

  it('an unsigned bundle is not verified (exit 1), and a missing key is one line, exit 2', async () => {
    const data = join(root, 'never-signed');
    cpSync(join(signed), data, { recursive: true });
    editStore(data, (store) => {
      delete store.signature;
    });
    rmSync(join(data, 'bundle', 'signature-manifest.json'));
    const verify = await cli('verify', '--data-dir', data);
    expect(verify.code).toBe(1);
    expect(verify.stdout).toContain('not signed');
    const sign = await cli('sign', '--data-dir', data, '--key', 'nobody');
    expect(sign.code).toBe(2);
    expect(sign.stderr.trim().split('\n')).toHaveLength(1);
    expect(sign.stderr).toContain('chatgraph key new');
  });
});
