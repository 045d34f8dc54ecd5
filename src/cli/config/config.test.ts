import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { tempDir } from '../../../test/support/convert-to-temp.js';
import { ROOT } from '../../../test/support/shared.js';
import { memoryIo } from '../cli-io.js';
import { runCli } from '../run-cli.js';

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo();
  const code = await runCli(['node', 'chatgraph', ...args], io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

const FIXTURE = join(ROOT, 'test', 'fixtures', 'chatgpt', 'kitchen-forks.json');
const ENV = ['CHATGRAPH_CONFIG', 'CHATGRAPH_DATA_DIR', 'NEO4J_URI'] as const;

interface Shown {
  file: { path: string; found: boolean };
  settings: { key: string; value: unknown; source: string; from?: string }[];
}
const shownOf = (text: string): Shown => JSON.parse(text) as Shown;

let home: string;
/** Writes `$XDG_CONFIG_HOME/chatgraph/<name>`. */
function writeConfig(text: string, name = 'config.toml'): string {
  const file = join(home, 'chatgraph', name);
  mkdirSync(join(home, 'chatgraph'), { recursive: true });
  writeFileSync(file, text);
  return file;
}

let data: string;
beforeAll(async () => {
  data = tempDir();
  expect((await cli('import', FIXTURE, '--data-dir', data, '-q')).code).toBe(0);
});

beforeEach(() => {
  home = tempDir('chatgraph-xdg-');
  vi.stubEnv('XDG_CONFIG_HOME', home);
  for (const name of ENV) vi.stubEnv(name, undefined);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('the config file', () => {
  it('gives the data folder to every command, without --data-dir', async () => {
    writeConfig(`data-dir = "${data}"\n`);
    const listed = await cli('list', '--json');
    expect(listed.err).toBe('');
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.out)).toMatchObject({ total: 1 });
    expect((await cli('stats', '--json')).code).toBe(0);
  });

  it('is read from config.json too, or from the file CHATGRAPH_CONFIG names', async () => {
    writeConfig(JSON.stringify({ 'data-dir': data }), 'config.json');
    expect(JSON.parse((await cli('list', '--json')).out)).toMatchObject({ total: 1 });
    const elsewhere = join(tempDir(), 'mine.toml');
    const none = join(tempDir(), 'none');
    writeFileSync(elsewhere, `data-dir = "${none}"\n`);
    vi.stubEnv('CHATGRAPH_CONFIG', elsewhere);
    const listed = await cli('list');
    expect(listed.code).toBe(2);
    expect(listed.err).toContain(`nothing is imported in ${none}`);
  });

  it('loses to the environment, which loses to the flag', async () => {
    const empty = tempDir();
    const file = writeConfig(`data-dir = "${empty}/from-file"\n`);
    vi.stubEnv('CHATGRAPH_DATA_DIR', data);
    expect(JSON.parse((await cli('list', '--json')).out)).toMatchObject({ total: 1 });
    const shown = await cli('config', '--json');
    expect(shownOf(shown.out).settings[0]).toEqual({
      key: 'data-dir',
      value: data,
      source: 'env',
      from: 'CHATGRAPH_DATA_DIR',
    });
    vi.stubEnv('CHATGRAPH_DATA_DIR', undefined);
    const fromFile = shownOf((await cli('config', '--json')).out);
    expect(fromFile.file).toEqual({ path: file, found: true });
    expect(fromFile.settings[0]).toMatchObject({ source: 'file', from: file });
    vi.stubEnv('CHATGRAPH_DATA_DIR', `${empty}/from-env`);
    const flagged = await cli('list', '--json', '--data-dir', data);
    expect(JSON.parse(flagged.out)).toMatchObject({ total: 1 });
    const shownFlag = shownOf((await cli('config', '--json', '--data-dir', data)).out);
    expect(shownFlag.settings[0]).toEqual({ key: 'data-dir', value: data, source: 'flag' });
  });

  it('shows each setting with where it came from, and never the password', async () => {
    const secret = join(home, 'pw');
    writeFileSync(secret, 'hunter2\n');
    const file = writeConfig(
      `[neo4j]\nuri = "bolt://127.0.0.1:1"\npassword-file = "${secret}"\n[serve]\nport = 9000\n`,
    );
    vi.stubEnv('NEO4J_URI', 'bolt://127.0.0.1:2');
    const shown = await cli('config');
    expect(shown.code).toBe(0);
    expect(shown.out).not.toContain('hunter2');
    const lines = shown.out.split('\n');
    expect(lines[0]).toBe(`config file: ${file}`);
    expect(lines.find((l) => l.startsWith('neo4j.uri'))).toMatch(
      /bolt:\/\/127\.0\.0\.1:2\s+env NEO4J_URI$/,
    );
    expect(lines.find((l) => l.startsWith('neo4j.password'))).toMatch(/\(set\)\s+file /);
    expect(lines.find((l) => l.startsWith('serve.port'))).toMatch(/9000\s+file /);
    expect(lines.find((l) => l.startsWith('serve.host'))).toMatch(/127\.0\.0\.1\s+default$/);
  });

  it('refuses an unknown key or a wrong type in one line naming the file and key, exit 2', async () => {
    const file = writeConfig('[neo4j]\nusr = "me"\n');
    const unknown = await cli('list');
    expect(unknown).toMatchObject({ code: 2, out: '' });
    expect(unknown.err).toBe(`chatgraph: ${file}: unknown key neo4j.usr`);
    writeConfig('[serve]\nport = "eighty"\n');
    const wrong = await cli('config');
    expect(wrong.code).toBe(2);
    expect(wrong.err).toBe(`chatgraph: ${file}: serve.port: expected number, received string`);
    writeConfig('data-dir = \n');
    const broken = await cli('stats');
    expect(broken.code).toBe(2);
    expect(broken.err.split('\n')).toHaveLength(1);
    expect(broken.err).toContain(`${file}: not valid TOML`);
  });
});
