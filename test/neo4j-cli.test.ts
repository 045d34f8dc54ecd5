import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { layoutOf } from '../src/folder/layout.js';
import { writeChatgptExport } from '../src/sample/write-samples.js';
import { Neo4jStore } from '../src/stores/neo4j/neo4j-store.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { DataFolder } from '../src/data-folder/data-folder.js';
import { startWebApp } from '../src/web/web-server.js';
import type { Row, Store } from '../src/stores/store.js';
import { SEED_QUERIES } from './contract/store-contract.js';
import { tempDir } from './support/convert-to-temp.js';
import { useNeo4j } from './support/neo4j-shared.js';
import { startNeo4j } from './support/neo4j-server.js';
import { GOLDEN_SOURCES, ROOT, fixturesOf } from './support/shared.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const STDERR_TERMINAL = join(ROOT, 'test', 'support', 'stderr-terminal.mjs');
const run = promisify(execFile);

const server = useNeo4j();

/** Runs the CLI with the test server's password in the environment. */
function cli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ stdout: string; stderr: string }> {
  return run('node', [CLI, ...args], {
    env: { ...process.env, NEO4J_PASSWORD: server.target.password, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
}

async function cliFailure(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stderr: string }> {
  try {
    await cli(args, env);
  } catch (error) {
    const e = error as { code: number; stderr: string };
    return { code: e.code, stderr: e.stderr };
  }
  throw new Error(`chatgraph ${args.join(' ')} succeeded`);
}

async function emptyNeo4j(): Promise<Neo4jStore> {
  const store = await Neo4jStore.open(server.target);
  await store.clear();
  return store;
}

async function withSqlite<T>(dataDir: string, use: (store: Store) => Promise<T>): Promise<T> {
  const store = SqliteStore.open(layoutOf(dataDir).store, { readonly: true });
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}

// Rows in a canonical order (the seed's queries do not all order their rows), map keys sorted.
function sorted(rows: Row[]): string[] {
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value !== null && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value)
              .sort(([a], [b]) => a.localeCompare(b))
              .map(([k, v]) => [k, canonical(v)]),
          )
        : value;
  return rows.map((row) => JSON.stringify(canonical(row))).sort();
}

const FIXTURES = GOLDEN_SOURCES.flatMap((source) => fixturesOf(source));

describe('chatgraph over Neo4j', () => {
  it('gives the same rows as the embedded store for the seed queries, search, thread and stats', async () => {
    const neo4j = await emptyNeo4j();
    const data = join(tempDir(), 'data');
    await cli(['import', ...FIXTURES, '--data-dir', data, '--deep', '--quiet']);
    const imported = await cli([
      'import',
      ...FIXTURES,
      '--data-dir',
      join(tempDir(), 'data'),
      '--deep',
      '--quiet',
      '--neo4j',
      server.target.url,
    ]);
    expect(imported.stdout).toContain(`graph (Neo4j at ${server.target.url})`);
    try {
      await withSqlite(data, async (sqlite) => {
        expect(await neo4j.counts()).toEqual(await sqlite.counts());
        const [conversation] = (await sqlite.listConversations({ sort: 'most-messages', limit: 1 }))
          .items;
        const params = { conv_id: conversation?.platformId, search_term: 'the' };
        for (const [name, query] of Object.entries(SEED_QUERIES)) {
          const expected = sorted(await sqlite.cypher(query, params));
          expect(expected.length, name).toBeGreaterThan(0);
          expect(sorted(await neo4j.cypher(query, params)), name).toEqual(expected);
        }
        const id = conversation?.id ?? '';
        expect(await neo4j.thread(id)).toEqual(await sqlite.thread(id));
        expect(await neo4j.thread(id, { allBranches: true })).toEqual(
          await sqlite.thread(id, { allBranches: true }),
        );
        expect(await neo4j.stats()).toEqual(await sqlite.stats());
        expect(await neo4j.listConversations({ limit: 50 })).toEqual(
          await sqlite.listConversations({ limit: 50 }),
        );
        // Rankers differ (BM25 in FTS5 and in Lucene), the matches do not.
        const ids = async (store: Store, text: string): Promise<string[]> =>
          (await store.search({ text, limit: 1000 })).hits.map((h) => h.messageId).sort();
        for (const text of ['sourdough', 'python', '"import pandas"', 'code*'])
          expect(await ids(neo4j, text), text).toEqual(await ids(sqlite, text));
      });
    } finally {
      await neo4j.close();
    }
  }, 180_000);

  it('runs the store commands against Neo4j from NEO4J_* variables', async () => {
    await (await emptyNeo4j()).close();
    const data = join(tempDir(), 'data');
    await cli(['import', ...fixturesOf('chatgpt'), '--data-dir', data, '--quiet'], {
      NEO4J_URI: server.target.url,
      NEO4J_USERNAME: 'neo4j',
    });
    const env = { NEO4J_URI: server.target.url };
    const stats = JSON.parse((await cli(['stats', '--format', 'json'], env)).stdout) as {
      conversations: number;
    };
    expect(stats.conversations).toBeGreaterThan(0);
    const query = await cli(
      ['query', 'MATCH (c:Conversation) RETURN count(c) AS n', '--format', 'json'],
      env,
    );
    expect(JSON.parse(query.stdout)).toEqual([{ n: stats.conversations }]);
    const refused = await cliFailure(['query', 'MATCH (n:Message) DETACH DELETE n'], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/writes are refused/);
  });

  it('refuses a wrong password, a wrong address and a stopped server in one sentence, writing nothing', async () => {
    const data = join(tempDir(), 'data');
    const input = fixturesOf('chatgpt');
    const wrongPassword = await cliFailure(
      ['import', ...input, '--data-dir', data, '--neo4j', server.target.url],
      { NEO4J_PASSWORD: 'not-the-password' },
    );
    expect(wrongPassword.code).toBe(2);
    expect(wrongPassword.stderr.trim()).toBe(
      `chatgraph: Neo4j at ${server.target.url} refused user "neo4j": check NEO4J_PASSWORD (and --user)`,
    );
    const down = await cliFailure([
      'import',
      ...input,
      '--data-dir',
      data,
      '--neo4j',
      'bolt://127.0.0.1:1',
    ]);
    expect(down.code).toBe(2);
    expect(down.stderr).toMatch(/^chatgraph: cannot reach Neo4j at bolt:\/\/127\.0\.0\.1:1: /);
    expect(down.stderr.trim().split('\n')).toHaveLength(1);
    const notBolt = await cliFailure(['stats', '--neo4j', 'http://127.0.0.1:7474']);
    expect(notBolt.stderr).toMatch(/is not a Neo4j address/);
    const noDatabase = await cliFailure([
      'stats',
      '--neo4j',
      server.target.url,
      '--database',
      'nosuchdb',
    ]);
    expect(noDatabase.stderr).toMatch(/has no database "nosuchdb"/);
    // Nothing was half-written: no bundle, no store.
    expect(existsSync(join(data, 'bundle'))).toBe(false);
    expect(existsSync(layoutOf(data).store)).toBe(false);
  });

  it('pushes a bundle, and completes a push cut off by the server going down, without duplicates', async () => {
    // Enough that the cut past 500 (below) leaves many to push: groups of about 140
    // conversations, so four or five at most are in when the server goes down. (It was 1,500:
    // the import and every push half as long again, the same cut.)
    const PUSHED = 1000;
    // This test pulls the plug, so it has a server of its own rather than the run's shared one.
    const own = await startNeo4j();
    try {
      const dir = tempDir();
      const input = join(dir, 'export.zip');
      await writeChatgptExport(input, { seed: 9, conversations: PUSHED });
      const data = join(dir, 'data');
      await cli(['import', input, '--data-dir', data, '--quiet']);
      const expected = await withSqlite(data, (store) => store.counts());

      // Pull the plug once the first groups are in: the push's own status line says how many
      // conversations it has handed to the writer; past 500 (groups of about 140 here, each
      // committed before the next but one is sent) some are in and most are not. The push is
      // paused while the server goes down, so it cannot run on to the end in between.
      const push = spawn(
        'node',
        ['--import', STDERR_TERMINAL, CLI, 'push', '--data-dir', data, '--neo4j', own.target.url],
        { env: { ...process.env, NEO4J_PASSWORD: own.target.password } },
      );
      let stderr = '';
      const exited = new Promise<number | null>((resolve) => push.once('exit', resolve));
      await new Promise<void>((resolve, reject) => {
        push.stderr.on('data', (chunk: Buffer) => {
          stderr += chunk.toString();
          const counts = [...stderr.matchAll(/· ([\d,]+) conversations/g)];
          const pushed = Number((counts.at(-1)?.[1] ?? '0').replaceAll(',', ''));
          if (pushed >= 500) resolve();
        });
        push.once('exit', () => {
          reject(new Error(`the push ended before it could be cut off: ${stderr}`));
        });
      });
      push.kill('SIGSTOP');
      await own.stop('SIGKILL');
      push.kill('SIGCONT');
      expect(await exited).toBe(2);
      expect(stderr).toMatch(/chatgraph: cannot reach Neo4j at /);

      await own.restart();
      const partial = await Neo4jStore.open(own.target);
      const before = await partial.conversationCount();
      await partial.close();
      expect(before).toBeGreaterThan(0);
      expect(before).toBeLessThan(PUSHED);
      const again = await cli(['push', '--data-dir', data, '--neo4j', own.target.url]);
      expect(again.stdout).toMatch(
        new RegExp(
          `pushed ${PUSHED.toLocaleString('en-US')} conversations .*: ${PUSHED - before} written, ${before} already there`,
        ),
      );
      const neo4j = await Neo4jStore.open(own.target);
      try {
        expect(await neo4j.counts()).toEqual(expected);
      } finally {
        await neo4j.close();
      }
      const third = await cli(['push', '--data-dir', data, '--neo4j', own.target.url]);
      expect(third.stdout).toContain(`0 written, ${PUSHED} already there`);
    } finally {
      await own.dispose();
    }
  }, 600_000);

  it('serves the web app over Neo4j', async () => {
    const neo4j = await emptyNeo4j();
    const data = join(tempDir(), 'data');
    await cli([
      'import',
      ...fixturesOf('claude-ai'),
      '--data-dir',
      data,
      '--quiet',
      '--neo4j',
      server.target.url,
    ]);
    const folder = await DataFolder.open(data, { neo4j: server.target });
    const app = await startWebApp({ folder, port: 0 });
    try {
      const get = async (path: string): Promise<unknown> => {
        const response = await fetch(`http://127.0.0.1:${app.port}${path}`);
        expect(response.status, path).toBe(200);
        return response.json();
      };
      const page = (await get('/api/conversations?sort=most-messages&limit=5')) as {
        total: number;
        items: { id: string }[];
      };
      expect(page.total).toBeGreaterThan(0);
      const id = page.items[0]?.id ?? '';
      const conversation = (await get(`/api/conversations/${id}`)) as { messages: unknown[] };
      expect(conversation.messages.length).toBeGreaterThan(0);
      const graph = (await get(`/api/graph/${id}`)) as { nodes: { label: string }[] };
      expect(graph.nodes.some((n) => n.label === 'Message')).toBe(true);
      expect(await get('/api/sources')).toEqual(['claude-ai']);
      const overview = (await get('/api/overview')) as { conversations: number };
      expect(overview.conversations).toBe(page.total);
    } finally {
      await app.close();
      await folder.close();
      await neo4j.close();
    }
  });

  it('says push needs a server, and a bundle', async () => {
    const noServer = await cliFailure(['push', '--data-dir', tempDir()], { NEO4J_URI: '' });
    expect(noServer.stderr).toMatch(/push needs a Neo4j server/);
    const noBundle = await cliFailure([
      'push',
      '--data-dir',
      join(tempDir(), 'empty'),
      '--neo4j',
      server.target.url,
    ]);
    expect(noBundle.stderr).toMatch(/there is no bundle in/);
  });
});
