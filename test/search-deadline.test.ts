import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GraphBatch } from '../src/graph/graph-batch.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { tempDir } from './support/convert-to-temp.js';
import { stdioClient } from './support/mcp-fixtures.js';
import { chatgraph } from './support/run-cli.js';
import { startServe } from './support/serve-cli.js';
import { cleanUp } from './support/clean-up.js';

/**
 * A search that takes long on a big store, run by a real `serve`: the server answers other
 * requests meanwhile, stops it at its deadline, and refuses an over-broad one in one line (as
 * the CLI and MCP do).
 */
const MESSAGES = 105_000;
/** Eight one-letter prefixes, all required: about 0.9 s over this store on the test machine. */
const SLOW = 'a* b* c* d* e* f* g* h*';
const BROAD = Array.from({ length: 182 }, (_, i) => `${String.fromCharCode(97 + (i % 26))}*`).join(
  ' OR ',
);
const BROAD_ANSWER = /^too broad: 182 prefix terms \(word\*\) in one search, at most 8: narrow it/;

// Messages of random words of a 30,000-word vocabulary (a deterministic generator).
function* bigStore(): Generator<GraphBatch> {
  let seed = 7;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const vocabulary = Array.from({ length: 30_000 }, () =>
    Array.from({ length: 3 + Math.floor(random() * 8) }, () =>
      String.fromCharCode(97 + Math.floor(random() * 26)),
    ).join(''),
  );
  for (let c = 0; c < MESSAGES / 50; c++) {
    const id = `big-${c}`;
    const batch: GraphBatch = {
      owner: id,
      nodes: [
        {
          label: 'Conversation',
          id,
          properties: {
            name: `Chat ${c}`,
            title: `Chat ${c}`,
            conversation_id: `p-${c}`,
            source: 'chatgpt',
            created_at: '2024-01-01T00:00:00Z',
            message_count: 50,
          },
        },
      ],
      edges: [],
    };
    for (let m = 0; m < 50; m++) {
      const words = Array.from(
        { length: 20 + Math.floor(random() * 60) },
        () => vocabulary[Math.floor(random() * random() * vocabulary.length)] ?? 'x',
      );
      batch.nodes.push({
        label: 'Message',
        id: `${id}:m${m}`,
        properties: {
          role: m % 2 ? 'assistant' : 'user',
          content: words.join(' '),
          created_at: '2024-01-01T00:00:00Z',
          conversation_id: `p-${c}`,
          position: m,
          on_shown_thread: true,
        },
      });
      batch.edges.push({ kind: 'HAS_MESSAGE', from: id, to: `${id}:m${m}` });
    }
    yield batch;
  }
}

let data: string;
let served: { server: ChildProcess; base: string };
let hurried: { server: ChildProcess; base: string };

beforeAll(async () => {
  data = join(tempDir(), 'data');
  const store = SqliteStore.open(join(data, 'chatgraph.sqlite'));
  await store.upsert(bigStore());
  await store.close();
  served = await startServe(data);
  // The same store, served with a deadline far under what the slow search takes.
  hurried = await startServe(data, process.env, ['--query-timeout', '0.05']);
}, 180_000);

afterAll(
  cleanUp(() => {
    served.server.kill();
    hurried.server.kill();
  }),
);

const get = async (url: string): Promise<{ status: number; body: string }> => {
  const answer = await fetch(url);
  return { status: answer.status, body: await answer.text() };
};

describe('a long search on a real server', () => {
  it('leaves the server answering other requests while it runs', async () => {
    let searchAnswered = false;
    const search = get(`${served.base}/api/search?mode=keyword&q=${encodeURIComponent(SLOW)}`).then(
      (answer) => {
        searchAnswered = true;
        return answer;
      },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const other = await get(`${served.base}/api/sources`);
    // The other request was answered while the search was still running.
    expect(searchAnswered).toBe(false);
    const slow = await search;
    expect([slow.status, other.status]).toEqual([200, 200]);
  });

  it('stops a search at the server’s deadline with a one-line answer, and serves the next', async () => {
    const slow = await get(`${hurried.base}/api/search?mode=keyword&q=${encodeURIComponent(SLOW)}`);
    expect(slow.status).toBe(400);
    expect((JSON.parse(slow.body) as { error: string }).error).toMatch(
      /^the search ran longer than 0\.05 s and was stopped: narrow it/,
    );
    const next = await get(`${served.base}/api/search?mode=keyword&q=zzzzzzzzz`);
    expect(next.status).toBe(200);
  });

  it('refuses an over-broad search at once, in one line', async () => {
    const broad = await get(`${served.base}/api/search?q=${encodeURIComponent(BROAD)}`);
    expect(broad.status).toBe(400);
    expect((JSON.parse(broad.body) as { error: string }).error).toMatch(BROAD_ANSWER);
  });
});

describe('the search deadline in the CLI', () => {
  // Exit code 2 as the CLI's other errors, not 137: the watchdog ended the process with SIGKILL
  // before. The search takes about 0.9 s; the deadline is 0.05 s after it was asked for.
  it.each(['text', 'json'])(
    'stops a slow search at --query-timeout: exit code 2, one line, nothing on stdout (%s)',
    async (format) => {
      const run = await chatgraph(
        'search',
        SLOW,
        '--mode',
        'keyword',
        '--query-timeout',
        '0.05',
        ...(format === 'json' ? ['--json'] : []),
        '--data-dir',
        data,
      );
      expect(run.stderr).toBe(
        'chatgraph: the search ran longer than 0.05 s and was stopped: narrow it (rarer words, longer prefixes, a filter) or give it more time (the limit is set with --query-timeout)\n',
      );
      expect(run.stdout).toBe('');
      expect(run.code).toBe(2);
    },
  );

  it('says in each command’s help what its --query-timeout stops', async () => {
    const help = async (command: string): Promise<string> =>
      (await chatgraph(command, '--help')).stdout.replace(/\s+/g, ' ');
    expect(await help('search')).toMatch(/--query-timeout <seconds> stop a search by words after/);
    const query = await help('query');
    expect(query).toMatch(/--query-timeout <s> stop the Cypher query after/);
    expect(query).not.toMatch(/search/);
    expect(await help('serve')).toMatch(
      /--query-timeout <s> stop a Cypher query or a search after/,
    );
  });
});

describe('an over-broad search in the CLI and over MCP', () => {
  it('the CLI says it in one line', async () => {
    const run = await chatgraph('search', BROAD, '--mode', 'keyword', '--data-dir', data);
    expect(run.code).not.toBe(0);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toMatch(/too broad: 182 prefix terms/);
  });

  let client: Client | undefined;
  afterAll(
    cleanUp(async () => {
      await client?.close();
    }),
  );

  it('MCP answers a tool error of one line, and stops a slow search at its deadline', async () => {
    client = await stdioClient(data, ['--query-timeout', '0.05']);
    const text = async (query: string): Promise<{ isError: unknown; text: string }> => {
      const result = await client?.callTool({
        name: 'search_conversations',
        arguments: { query, mode: 'keyword' },
      });
      const [first] = (result?.content ?? []) as { text?: string }[];
      return { isError: result?.isError, text: first?.text ?? '' };
    };
    const broad = await text(BROAD);
    expect(broad.isError).toBe(true);
    expect(broad.text).toMatch(/too broad: 182 prefix terms/);
    expect(broad.text.trim().split('\n')).toHaveLength(1);
    const slow = await text(SLOW);
    expect(slow.isError).toBe(true);
    expect(slow.text).toMatch(/the search ran longer than 0\.05 s and was stopped/);
  });
});
