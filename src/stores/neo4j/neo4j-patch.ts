import type { ManagedTransaction } from 'neo4j-driver';
import type { GraphBatch, GraphEdge, GraphNode } from '../../graph/graph-batch.js';
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
import type { HashedBatch } from '../store.js';
import {
  chunks,
  neo4jGraphWriter,
  storedProperties,
  type Neo4jWrite,
} from './neo4j-graph-writer.js';
import { mergeEdges, mergeNodes } from './neo4j-schema.js';

type NodeRow = { id: string; props: Record<string, unknown> };
type EdgeRow = { from: string; to: string };

/**
 * Writes a conversation that grew since `previous` was written, as the SQLite store's patch
 * does (see `sqlite-patch.ts`): in one transaction, edges gone are deleted, new and changed
 * nodes written, new edges merged; the rest of the conversation is not touched, so one line
 * appended to a long session costs what it adds. The conversation is written whole instead
 * when the store does not hold `previous` (another writer changed it) or a node went (a
 * rewritten log).
 */
export async function patchNeo4j(
  write: Neo4jWrite,
  previous: HashedBatch,
  next: HashedBatch,
  deep: boolean,
): Promise<'written' | 'unchanged'> {
  const hash = batchHash(next);
  const outcome = await write(async (tx) => {
    const stored = await tx.run(
      `MATCH (c:Conversation {id: $id}) RETURN c._hash AS hash, c._deep AS deep`,
      { id: next.owner },
    );
    const record = stored.records[0];
    const same = (h: string): boolean => record?.get('hash') === h && record.get('deep') === deep;
    if (same(hash)) return 'unchanged';
    if (!same(batchHash(previous))) return 'replace';
    return applyPatch(tx, previous, next, { hash, deep });
  });
  if (outcome !== 'replace') return outcome;
  const writer = neo4jGraphWriter(write, deep);
  await writer.write(next);
  await writer.end();
  return 'written';
}

async function applyPatch(
  tx: ManagedTransaction,
  previous: GraphBatch,
  next: GraphBatch,
  written: { hash: string; deep: boolean },
): Promise<'written' | 'replace'> {
  const nextIds = new Set(next.nodes.map((node) => node.id));
  if (previous.nodes.some((node) => !nextIds.has(node.id))) return 'replace';
  const gone = edgeRows(previous.edges, next.edges);
  for (const kind of EDGE_KINDS)
    for (const rows of chunks(gone.get(kind) ?? [])) await tx.run(deleteEdges(kind), { rows });
  const before = new Map(previous.nodes.map((node) => [node.id, node]));
  const placeBefore = messagePlaces(previous);
  const changed = new Map<Label, NodeRow[]>();
  let seq = 0;
  for (const node of next.nodes) {
    const place = node.label === 'Message' ? seq++ : 0;
    const old = before.get(node.id);
    // The Conversation always: it holds the hash of what it was written from.
    const same =
      old !== undefined &&
      node.label !== 'Conversation' &&
      (node.label !== 'Message' || placeBefore.get(node.id) === place) &&
      sameProperties(old.properties, node.properties);
    if (same) continue;
    // An owned node is written from scratch by a full rewrite: its properties are replaced,
    // not merged; a shared node (a model, a tool) is merged there too.
    const rows = changed.get(node.label) ?? [];
    changed.set(node.label, rows);
    rows.push({ id: node.id, props: storedProperties(node, next.owner, place, written) });
  }
  for (const label of LABEL_NAMES) {
    const statement = SHARED_LABELS.has(label) ? mergeNodes(label) : replaceNodes(label);
    for (const rows of chunks(changed.get(label) ?? [])) await tx.run(statement, { rows });
  }
  const added = edgeRows(next.edges, previous.edges);
  for (const kind of EDGE_KINDS)
    for (const rows of chunks(added.get(kind) ?? [])) await tx.run(mergeEdges(kind), { rows });
  return 'written';
}

/** Each message's place among the batch's messages (stored as `_seq`). */
function messagePlaces(batch: GraphBatch): Map<string, number> {
  const places = new Map<string, number>();
  for (const node of batch.nodes) if (node.label === 'Message') places.set(node.id, places.size);
  return places;
}

/** The edges of `edges` that `other` lacks, by kind. */
function edgeRows(
  edges: readonly GraphEdge[],
  other: readonly GraphEdge[],
): Map<EdgeKind, EdgeRow[]> {
  const known = new Set(other.map((edge) => `${edge.kind}\u0000${edge.from}\u0000${edge.to}`));
  const out = new Map<EdgeKind, EdgeRow[]>();
  for (const edge of edges) {
    if (known.has(`${edge.kind}\u0000${edge.from}\u0000${edge.to}`)) continue;
    const rows = out.get(edge.kind) ?? [];
    out.set(edge.kind, rows);
    rows.push({ from: edge.from, to: edge.to });
  }
  return out;
}

function sameProperties(a: GraphNode['properties'], b: GraphNode['properties']): boolean {
  const keys = Object.keys(b);
  if (keys.length !== Object.keys(a).length) return false;
  return keys.every((key) => a[key] === b[key]);
}

/** Owned nodes' properties replaced whole, as a rewrite would leave them. */
function replaceNodes(label: Label): string {
  return `UNWIND $rows AS row MERGE (n:${label} {id: row.id}) SET n = row.props, n.id = row.id`;
}

/** The deletion of one kind's edges from `$rows` of `{from, to}` (their ends' labels tell NEXT apart). */
function deleteEdges(kind: EdgeKind): string {
  const { from, to } = EDGES[kind];
  return `UNWIND $rows AS row MATCH (:${from} {id: row.from})-[r:${edgeTypeName(kind)}]->(:${to} {id: row.to}) DELETE r`;
}
