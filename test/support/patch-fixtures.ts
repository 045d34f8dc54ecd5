import {
  SessionConversion,
  convertSession,
  type SessionSource,
} from '../../src/live/convert-session.js';
import type { GraphEdge, GraphNode } from '../../src/graph/graph-batch.js';
import type { HashedBatch, Store } from '../../src/stores/store.js';

// A session's lines: a prompt, a reply split over two lines (one message.id), a tool call, and
// its result on a later line, as Claude Code writes them.
export const LINES: unknown[] = [
  {
    type: 'user',
    uuid: 'u1',
    parentUuid: null,
    sessionId: 's1',
    timestamp: '2026-01-01T10:00:00Z',
    message: { role: 'user', content: 'plan the zeppelin route' },
  },
  {
    type: 'assistant',
    uuid: 'a1',
    parentUuid: 'u1',
    sessionId: 's1',
    timestamp: '2026-01-01T10:00:01Z',
    message: {
      id: 'm1',
      role: 'assistant',
      model: 'claude-x',
      content: [{ type: 'text', text: 'first half alpha' }],
    },
  },
  {
    type: 'assistant',
    uuid: 'a2',
    parentUuid: 'a1',
    sessionId: 's1',
    timestamp: '2026-01-01T10:00:02Z',
    message: {
      id: 'm1',
      role: 'assistant',
      model: 'claude-x',
      content: [{ type: 'text', text: 'second half omega' }],
    },
  },
  {
    type: 'assistant',
    uuid: 'a3',
    parentUuid: 'a2',
    sessionId: 's1',
    timestamp: '2026-01-01T10:00:03Z',
    message: {
      id: 'm2',
      role: 'assistant',
      model: 'claude-x',
      content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: '/a.txt' } }],
    },
  },
  {
    type: 'user',
    uuid: 'r1',
    parentUuid: 'a3',
    sessionId: 's1',
    timestamp: '2026-01-01T10:00:04Z',
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: 't1', content: 'the file says quasar' }],
    },
  },
  {
    type: 'user',
    uuid: 'u2',
    parentUuid: 'r1',
    sessionId: 's1',
    timestamp: '2026-01-01T10:00:05Z',
    message: { role: 'user', content: 'and the return trip' },
  },
];

/** Where the fixtures' session log comes from, for a conversion. */
export const SESSION_SOURCE: SessionSource = {
  entryPath: '-p/s1.jsonl',
  displayPath: 'projects/-p/s1.jsonl',
  variant: 'session',
  checksum: 'sha256:0',
  importId: 'import:live:projects/-p/s1.jsonl',
  importedAt: '2026-01-01T10:00:00.000000Z',
  deep: false,
};

/**
 * The conversation of `lines` as the store gets it, hanging from `importId` (a followed log's
 * Import moves to its new checksum at each append).
 */
export function batchOf(
  lines: readonly unknown[],
  importId = SESSION_SOURCE.importId,
): HashedBatch {
  const [conversation] = convertSession(lines, { ...SESSION_SOURCE, importId }, () => undefined);
  if (!conversation) throw new Error('no conversation');
  const settled = conversation.settle();
  return { ...settled.batch(), hash: settled.contentHash };
}

/**
 * One conversion fed each step's new lines, as `watch` does: unchanged messages' nodes and
 * edges are the previous batch's objects, which the patch skips by identity. Every other step
 * is settled (its Document made again, the content hash for its version), as `watch` settles
 * after a quiet moment; the others keep the Document of the last settle.
 */
export function grower(): (lines: readonly unknown[], importId?: string) => HashedBatch {
  const conversion = new SessionConversion(SESSION_SOURCE);
  let read = 0;
  return (lines, importId = SESSION_SOURCE.importId) => {
    // The checksum of the lines read so far: the version a step stands in with until settled.
    const checksum = `sha256:${lines.length}`;
    const [conversation] = conversion.convert(
      lines.slice(read),
      { ...SESSION_SOURCE, importId, checksum },
      () => undefined,
    );
    read = lines.length;
    if (!conversation) throw new Error('no conversation');
    if (read % 2 === 1) return { ...conversation.batch(), hash: conversation.version };
    const settled = conversation.settle();
    return { ...settled.batch(), hash: settled.contentHash };
  };
}

/** What a reader sees of the store: search hits of `words`, the subgraph, counts and stats. */
export async function snapshot(store: Store, owner: string, words: readonly string[]) {
  const hits: Record<string, number> = {};
  for (const word of words)
    hits[word] = (await store.search({ text: word, mode: 'keyword' })).hits.length;
  const graph = await store.subgraph(owner);
  // Property order is the store's own (Neo4j keeps a node's in the order they were set).
  const sort = (items: readonly GraphNode[] | readonly GraphEdge[]) =>
    items.map((i) => JSON.stringify(i, (_, v: unknown) => sortedKeys(v))).sort();
  return {
    hits,
    nodes: sort(graph?.nodes ?? []),
    edges: sort(graph?.edges ?? []),
    counts: await store.counts(),
    stats: await store.stats(),
  };
}

/** Words of the session's messages (and of a rewritten one). */
export const WORDS = ['zeppelin', 'alpha', 'omega', 'quasar', 'return', 'rewritten'];

function sortedKeys(value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : 1)));
}

/**
 * A followed log's Import moving with its checksum, as `watch` records it; returns the Import
 * ids left after the log's stale ones are dropped (another conversation's, of the same file
 * name, still has its edge and stays).
 */
export async function importsAfterDrop(store: Store): Promise<string[]> {
  const source = 'projects/-p/s1.jsonl';
  const record = async (n: number) => {
    await store.recordImport({
      id: `import:sha256:${n}`,
      sourceFile: source,
      checksum: `sha256:${n}`,
      importer: 'chatgraph/test',
      importedAt: '2026-01-01T10:00:00.000000Z',
    });
  };
  const first = batchOf(LINES.slice(0, 1), 'import:sha256:1');
  const other = batchOf(
    LINES.map((l) => ({ ...(l as object), sessionId: 's2' })),
    'import:sha256:9',
  );
  await store.upsert([first, other]);
  await record(1);
  await record(9);
  const next = batchOf(LINES.slice(0, 2), 'import:sha256:2');
  await store.patch?.(first, next, false);
  await record(2);
  await store.dropStaleImports(source, 'import:sha256:2');
  return (await store.importedFiles()).map((f) => f.id).sort();
}
