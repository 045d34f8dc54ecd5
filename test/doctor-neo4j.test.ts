import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { memoryIo } from '../src/cli/cli-io.js';
import { runCli } from '../src/cli/run-cli.js';
import { tempDir } from './support/convert-to-temp.js';
import { useNeo4j } from './support/neo4j-shared.js';
import { ROOT } from './support/shared.js';

const server = useNeo4j();

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo();
  const code = await runCli(['node', 'chatgraph', ...args], io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

const FIXTURE = join(ROOT, 'test', 'fixtures', 'chatgpt', 'kitchen-forks.json');

/** A config folder whose file names this Neo4j, the password in a file of its own. */
function configFor(uri: string): string {
  const home = tempDir();
  mkdirSync(join(home, 'chatgraph'));
  const secret = join(home, 'neo4j-password');
  writeFileSync(secret, `${server.target.password}\n`);
  writeFileSync(
    join(home, 'chatgraph', 'config.toml'),
    `[neo4j]\nuri = "${uri}"\nuser = "${server.target.user}"\npassword-file = "${secret}"\n`,
  );
  return home;
}

let data: string;
beforeAll(async () => {
  data = join(tempDir(), 'data');
  expect((await cli('import', FIXTURE, '--data-dir', data, '-q')).code).toBe(0);
});
afterEach(() => {
  vi.unstubAllEnvs();
});

describe('chatgraph doctor with Neo4j in force (from the config file)', () => {
  it('finds Neo4j behind the bundle, names the push, and is content after it', async () => {
    for (const name of ['NEO4J_URI', 'NEO4J_USERNAME', 'NEO4J_PASSWORD', 'NEO4J_DATABASE'])
      vi.stubEnv(name, undefined);
    vi.stubEnv('XDG_CONFIG_HOME', configFor(server.target.url));
    const behind = await cli('doctor', '--data-dir', data);
    expect(behind.out).toContain(
      `FIX   neo4j: ${server.target.url} holds 0 conversations, the bundle 1`,
    );
    expect(behind.out).toContain(`run: chatgraph push --data-dir ${data}`);
    expect(behind.code).toBe(1);
    // The password reached the driver from the file named in the config.
    const pushed = await cli('push', '--data-dir', data, '-q');
    expect(pushed.err).toBe('');
    expect(pushed.code).toBe(0);
    const after = await cli('doctor', '--data-dir', data);
    expect(after.out).toContain(
      `ok    neo4j: ${server.target.url} reachable, 1 conversation as in the bundle`,
    );
    expect(after.code).toBe(0);
  });

  it('says when the server does not answer', async () => {
    vi.stubEnv('NEO4J_URI', undefined);
    vi.stubEnv('XDG_CONFIG_HOME', configFor('bolt://127.0.0.1:9'));
    const { out, code } = await cli('doctor', '--data-dir', data);
    expect(out).toContain('FIX   neo4j: cannot reach bolt://127.0.0.1:9');
    expect(code).toBe(1);
  });
});
