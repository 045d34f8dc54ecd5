import neo4j, { type ManagedTransaction } from 'neo4j-driver';
import type { GraphEdge, GraphNode } from '../../graph/graph-batch.js';
import {
  deltaOf,
  edgeIndex,
  hasEdge,
  removesNode,
  sameNode,
  type GraphDelta,
} from '../../graph/graph-delta.js';
import {
  EDGES,
  EDGE_KINDS,
  LABEL_NAMES,
  SHARED_LABELS,
  edgeTypeName,
  type EdgeKind,
  type Label,
} from '../../graph/schema.js';
import { batchHash } from '../batch-hash.js';
import { batchLanguage, batchNeedsDetector } from '../batch-language.js';
import { preloadLanguageDetector } from '../../search/language-detection.js';
import type { StemLanguage } from '../../search/stemming.js';
import type { HashedBatch } from '../store.js';
import {
  chunks,
  neo4jGraphWriter,
  storedProperties,
  type Neo4jWrite,
} from './neo4j-graph-writer.js';
import { MARK_STEMMED, mergeEdges, mergeNodes } from './neo4j-schema.js';
import { STEMS_PROPERTY } from './neo4j-full-text.js';

type NodeRow = { id: string; props: Record<string, unknown> };
type EdgeRow = { from: string; to: string };
/** What a conversation is written as: `_hash` and `_deep` on its Conversation node. */
type Version = { hash: string; deep: boolean };

/**
 * Writes a conversation that grew since `previous` was written, as the SQLite store's patch
 * does (see `sqlite-patch.ts`): the delta between the two (see `deltaOf`) is written by
 * {@link writeDelta}, so one line appended to a long session costs what it adds in Neo4j (the
 * diff itself is of the whole batches). The conversation is written whole instead when the
 * store does not hold `previous` (another writer changed it) or a node went (a rewritten log).
 */
export async function patchNeo4j(
  write: Neo4jWrite,
  previous: HashedBatch,
  next: HashedBatch,
  deep: boolean,
): Promise<'written' | 'unchanged'> {
  const hash = batchHash(next);
  // The delta's messages are stemmed in their language, which may ask eld (see writeDelta).
  if (batchNeedsDetector(next.nodes)) await preloadLanguageDetector();
  const outcome = await write(async (tx) => {
    if (await holds(tx, next.owner, { hash, deep })) return 'unchanged';
    if (!(await holds(tx, next.owner, { hash: batchHash(previous), deep }))) return 'replace';
    return writeDelta(tx, deltaOf(previous, next), { hash, deep });
  });
  if (outcome !== 'replace') return outcome;
  const writer = neo4jGraphWriter(write, deep);
  await writer.write(next);
  await writer.end();
  return 'written';
}

/**
 * Writes a grown conversation's delta over version `base` as version `hash`, in one
 * transaction that first checks the store holds `base`; `stale`, with nothing written, when
 * it does not or when the delta takes an owned node away (see `Store.applyDelta`).
 */
export async function applyNeo4jDelta(
  write: Neo4jWrite,
  delta: GraphDelta,
  base: string,
  hash: string,
  deep: boolean,
): Promise<'written' | 'stale'> {
  if (removesNode(delta)) return 'stale';
  if (batchNeedsDetector([...delta.left.nodes, ...delta.fresh.nodes]))
    await preloadLanguageDetector();
  return write(async (tx) => {
    if (!(await holds(tx, delta.owner, { hash: base, deep }))) return 'stale';
    await writeDelta(tx, delta, { hash, deep });
    return 'written';
  });
}

/** Whether the store holds this version of the conversation (read in the writing transaction). */
async function holds(tx: ManagedTransaction, owner: string, version: Version): Promise<boolean> {
  const stored = await tx.run(
    `MATCH (c:Conversation {id: $id}) RETURN c._hash AS hash, c._deep AS deep`,
    { id: owner },
  );
  const record = stored.records[0];
  return record?.get('hash') === version.hash && record.get('deep') === version.deep;
}

/**
 * Writes a delta inside the caller's transaction: edges left and not made again are deleted,
 * fresh nodes that are new or changed written, fresh edges not left merged, and the
 * Conversation stamped with the version written; nothing else is touched. `replace` (nothing
 * written) when the delta takes an owned node away: the conversation is then written whole.
 * Neo4j keeps no per-conversation counts: `counts()` and `stats()` count the nodes as they are.
 */
async function writeDelta(
  tx: ManagedTransaction,
  delta: GraphDelta,
  version: Version,
): Promise<'written' | 'replace'> {
  if (removesNode(delta)) return 'replace';
  const { left, fresh, owner } = delta;
  const freshEdges = edgeIndex(fresh.edges);
  const gone = byKind(left.edges.filter((edge) => !hasEdge(freshEdges, edge)));
  for (const kind of EDGE_KINDS)
    for (const rows of chunks(gone.get(kind) ?? [])) await tx.run(deleteEdges(kind), { rows });
  // The conversation's language as a whole import would tell it, for the messages' stems.
  const language = batchLanguage([...left.nodes, ...fresh.nodes]);
  const { changed, placed } = nodeRows(delta, { ...version, language });
  for (const label of LABEL_NAMES) {
    const statement = SHARED_LABELS.has(label) ? mergeNodes(label) : replaceNodes(label);
    for (const rows of chunks(changed.get(label) ?? [])) await tx.run(statement, { rows });
  }
  for (const rows of chunks(placed)) await tx.run(PLACE_MESSAGES, { rows });
  if (changed.get('Message')?.some((row) => STEMS_PROPERTY in row.props))
    await tx.run(MARK_STEMMED);
  // The Conversation holds what it was written from, whether or not its properties changed.
  await tx.run(`MATCH (c:Conversation {id: $id}) SET c._hash = $hash, c._deep = $deep`, {
    id: owner,
    ...version,
  });
  const leftEdges = edgeIndex(left.edges);
  const added = byKind(fresh.edges.filter((edge) => !hasEdge(leftEdges, edge)));
  for (const kind of EDGE_KINDS)
    for (const rows of chunks(added.get(kind) ?? [])) await tx.run(mergeEdges(kind), { rows });
  return 'written';
}

/**
 * The fresh nodes to write (new, or properties changed) by label, and the places of the fresh
 * Message nodes whose properties did not change: a message moved among the messages keeps its
 * node but not its `_seq` (the delta gives only its new place, so the store compares).
 */
function nodeRows(
  delta: GraphDelta,
  version: Version & { language: StemLanguage | undefined },
): { changed: Map<Label, NodeRow[]>; placed: { id: string; seq: unknown }[] } {
  const before = new Map(delta.left.nodes.map((node) => [node.id, node]));
  const changed = new Map<Label, NodeRow[]>();
  const placed: { id: string; seq: unknown }[] = [];
  for (const node of delta.fresh.nodes) {
    const place = node.label === 'Message' ? placeOf(delta, node) : 0;
    const old = before.get(node.id);
    if (old && sameNode(old, node)) {
      if (node.label === 'Message') placed.push({ id: node.id, seq: neo4j.int(place) });
      continue;
    }
    // An owned node is written from scratch by a full rewrite: its properties are replaced,
    // not merged; a shared node (a model, a tool) is merged there too.
    const rows = changed.get(node.label) ?? [];
    changed.set(node.label, rows);
    rows.push({ id: node.id, props: storedProperties(node, delta.owner, place, version) });
  }
  return { changed, placed };
}

function placeOf(delta: GraphDelta, node: GraphNode): number {
  const place = delta.places.get(node.id);
  if (place === undefined)
    throw new Error(`delta of conversation ${delta.owner}: no place for message node ${node.id}`);
  return place;
}

/** Edges as UNWIND rows, by kind. */
function byKind(edges: readonly GraphEdge[]): Map<EdgeKind, EdgeRow[]> {
  const out = new Map<EdgeKind, EdgeRow[]>();
  for (const edge of edges) {
    const rows = out.get(edge.kind) ?? [];
    out.set(edge.kind, rows);
    rows.push({ from: edge.from, to: edge.to });
  }
  return out;
}

/** A kept message's `_seq` moved to its place, written only where it differs. */
const PLACE_MESSAGES = `UNWIND $rows AS row MATCH (m:Message {id: row.id}) WHERE m._seq <> row.seq SET m._seq = row.seq`;

/** Owned nodes' properties replaced whole, as a rewrite would leave them. */
function replaceNodes(label: Label): string {
  return `UNWIND $rows AS row MERGE (n:${label} {id: row.id}) SET n = row.props, n.id = row.id`;
}

/** The deletion of one kind's edges from `$rows` of `{from, to}` (their ends' labels tell NEXT apart). */
function deleteEdges(kind: EdgeKind): string {
  const { from, to } = EDGES[kind];
  return `UNWIND $rows AS row MATCH (:${from} {id: row.from})-[r:${edgeTypeName(kind)}]->(:${to} {id: row.to}) DELETE r`;
}
