import neo4j, { type ManagedTransaction } from 'neo4j-driver';
import type { GraphNode } from '../../graph/graph-batch.js';
import { EDGE_KINDS, LABEL_NAMES, SHARED_LABELS, type Label } from '../../graph/schema.js';
import { batchHash } from '../batch-hash.js';
import { batchLanguage, batchNeedsDetector, messageStems } from '../batch-language.js';
import { preloadLanguageDetector } from '../../search/language-detection.js';
import type { StemLanguage } from '../../search/stemming.js';
import { STEMS_PROPERTY } from './neo4j-full-text.js';
import type { GraphWriter, HashedBatch, WriteReport } from '../store.js';
import {
  MARK_STEMMED,
  OWNED_LABELS,
  integerProperties,
  mergeEdges,
  mergeNodes,
} from './neo4j-schema.js';
import { VECTOR_LABEL } from './neo4j-vector-index.js';
import { parseRow, text as Text } from '../store-rows.js';

/** Nodes and edges per transaction: big enough for UNWIND to pay, small enough to retry. */
const GROUP_ROWS = 20_000;
/** Rows per UNWIND statement inside a transaction. */
const STATEMENT_ROWS = 5_000;

/** Runs work in one write transaction (retried by the driver on transient errors). */
export type Neo4jWrite = <T>(work: (tx: ManagedTransaction) => Promise<T>) => Promise<T>;

/**
 * Gathers batches into groups of about {@link GROUP_ROWS} rows and writes each group in one
 * transaction; one group is written while the next is gathered.
 */
export function neo4jGraphWriter(write: Neo4jWrite, deep: boolean): GraphWriter {
  const report: WriteReport = { written: 0, unchanged: 0 };
  let queue: HashedBatch[] = [];
  let rows = 0;
  let inFlight: Promise<void> = Promise.resolve();
  // A sub-agent's conversation may be written in a later group than the call that STARTED it,
  // or replaced after it (its node detached): the edge is matched again once all is written,
  // and kept to match again only while its conversation is not there (a writer that lives, as
  // watch's, does not re-match every edge it ever wrote).
  let started: { from: string; to: string }[] = [];
  const linkStarted = async (): Promise<void> => {
    if (started.length === 0) return;
    const linked = await write(async (tx) => {
      const done = new Set<string>();
      for (const rows of chunks(started)) {
        const result = await tx.run(
          `${mergeEdges('STARTED')} RETURN row.from + ' ' + row.to AS edge`,
          { rows },
        );
        for (const record of result.records) done.add(String(record.get('edge')));
      }
      return done;
    });
    started = started.filter((edge) => !linked.has(`${edge.from} ${edge.to}`));
  };
  const send = async (): Promise<void> => {
    const group = queue;
    queue = [];
    rows = 0;
    await inFlight;
    inFlight = writeGroup(write, group, deep).then((r) => {
      report.written += r.written;
      report.unchanged += r.unchanged;
    });
    // Keep a failure from being unhandled before someone awaits it.
    inFlight.catch(() => undefined);
  };
  return {
    write: async (batch) => {
      queue.push(batch);
      for (const edge of batch.edges)
        if (edge.kind === 'STARTED') started.push({ from: edge.from, to: edge.to });
      rows += batch.nodes.length + batch.edges.length;
      if (rows >= GROUP_ROWS) await send();
    },
    flush: async () => {
      if (queue.length > 0) await send();
      await inFlight;
      await linkStarted();
    },
    end: async () => {
      if (queue.length > 0) await send();
      await inFlight;
      await linkStarted();
      return { ...report };
    },
  };
}

/** Writes a group of conversations in one transaction, skipping those already written as they are. */
async function writeGroup(
  write: Neo4jWrite,
  group: HashedBatch[],
  deep: boolean,
): Promise<WriteReport> {
  // The last batch of a conversation given twice wins.
  const byOwner = new Map<string, HashedBatch>();
  for (const batch of group) byOwner.set(batch.owner, batch);
  // Messages are stemmed in their language while the rows are made, which may ask eld.
  if (group.some((batch) => batchNeedsDetector(batch.nodes))) await preloadLanguageDetector();
  const hashes = new Map([...byOwner.values()].map((b) => [b.owner, batchHash(b)]));
  return write(async (tx) => {
    const stored = await tx.run(
      `UNWIND $ids AS id MATCH (c:Conversation {id: id}) RETURN c.id AS id, c._hash AS hash, c._deep AS deep`,
      { ids: [...byOwner.keys()] },
    );
    const unchanged = new Set<string>();
    const replaced: string[] = [];
    for (const record of stored.records) {
      const id = parseRow(Text, record.get('id'), 'conversation id', 'Neo4j');
      if (record.get('hash') === hashes.get(id) && record.get('deep') === deep) unchanged.add(id);
      else replaced.push(id);
    }
    // A batch without a Conversation (a Claude.ai project's) has no hash to compare: it is
    // replaced whole each time, so a document taken out of the project goes.
    for (const batch of byOwner.values())
      if (!batch.nodes.some((n) => n.label === 'Conversation')) replaced.push(batch.owner);
    const batches = [...byOwner.values()].filter((b) => !unchanged.has(b.owner));
    // A changed conversation loses every node it owned, and so every edge of those nodes.
    if (replaced.length > 0) {
      for (const label of [...OWNED_LABELS, VECTOR_LABEL]) {
        await tx.run(`UNWIND $owners AS o MATCH (n:${label} {_owner: o}) DETACH DELETE n`, {
          owners: replaced,
        });
      }
    }
    const { nodes, edges } = groupRows(batches, hashes, deep);
    for (const label of LABEL_NAMES) {
      for (const rows of chunks(nodes.get(label) ?? [])) await tx.run(mergeNodes(label), { rows });
    }
    for (const kind of EDGE_KINDS) {
      for (const rows of chunks(edges.get(kind) ?? [])) await tx.run(mergeEdges(kind), { rows });
    }
    if (nodes.get('Message')?.some((row) => STEMS_PROPERTY in row.props))
      await tx.run(MARK_STEMMED);
    return { written: batches.length, unchanged: unchanged.size };
  });
}

/** The group's nodes by label and edges by kind, as UNWIND rows with the store's own fields. */
function groupRows(
  batches: HashedBatch[],
  hashes: ReadonlyMap<string, string>,
  deep: boolean,
): {
  nodes: Map<Label, { id: string; props: Record<string, unknown> }[]>;
  edges: Map<string, { from: string; to: string }[]>;
} {
  const nodes = new Map<Label, { id: string; props: Record<string, unknown> }[]>();
  const edges = new Map<string, { from: string; to: string }[]>();
  for (const batch of batches) {
    let seq = 0;
    const hash = hashes.get(batch.owner) ?? '';
    const language = batchLanguage(batch.nodes);
    for (const node of batch.nodes) {
      const props = storedProperties(node, batch.owner, node.label === 'Message' ? seq++ : 0, {
        hash,
        deep,
        language,
      });
      const list = nodes.get(node.label);
      if (list) list.push({ id: node.id, props });
      else nodes.set(node.label, [{ id: node.id, props }]);
    }
    for (const edge of batch.edges) {
      const list = edges.get(edge.kind);
      if (list) list.push({ from: edge.from, to: edge.to });
      else edges.set(edge.kind, [{ from: edge.from, to: edge.to }]);
    }
  }
  return { nodes, edges };
}

/**
 * A node's properties as stored: its own (see {@link propertiesOf}) and chatgraph's: the owner
 * of an owned node, a message's place (`seq`) and its stemmed text (in its own language, the
 * conversation's by default: see messageStems), what a Conversation was written from.
 */
export function storedProperties(
  node: GraphNode,
  owner: string,
  seq: number,
  written: { hash: string; deep: boolean; language?: StemLanguage | undefined },
): Record<string, unknown> {
  const props = propertiesOf(node);
  if (!SHARED_LABELS.has(node.label)) props._owner = owner;
  if (node.label === 'Message') {
    props._seq = neo4j.int(seq);
    const stems = messageStems(node.properties.content, written.language);
    if (stems !== undefined) props[STEMS_PROPERTY] = stems;
  }
  if (node.label === 'Conversation') {
    props._hash = written.hash;
    props._deep = written.deep;
  }
  return props;
}

/** A node's properties as Neo4j takes them: integers as integers, no nulls. */
function propertiesOf(node: GraphNode): Record<string, unknown> {
  const integers = integersOf(node.label);
  const props: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node.properties)) {
    if (value === null) continue;
    props[key] = integers.has(key) && typeof value === 'number' ? neo4j.int(value) : value;
  }
  return props;
}

// A label's integer properties, made once (a 5,000-message session has as many nodes).
const INTEGERS = new Map<Label, Set<string>>();
function integersOf(label: Label): Set<string> {
  let integers = INTEGERS.get(label);
  if (!integers) {
    integers = integerProperties(label);
    INTEGERS.set(label, integers);
  }
  return integers;
}

export function chunks<T>(rows: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < rows.length; i += STATEMENT_ROWS) out.push(rows.slice(i, i + STATEMENT_ROWS));
  return out;
}
