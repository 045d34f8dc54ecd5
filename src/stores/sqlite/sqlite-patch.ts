import type Database from 'better-sqlite3';
import type { GraphBatch, GraphEdge, GraphNode } from '../../graph/graph-batch.js';
import { EDGE_KINDS, SHARED_LABELS, type EdgeKind, type Label } from '../../graph/schema.js';
import { FULL_TEXT } from './full-text.js';
import { quote } from './sqlite-schema.js';

type Statement = Database.Statement;

/** What the patcher borrows from the store (its prepared statements and row helpers). */
export interface PatchDeps {
  insertNode: ReadonlyMap<Label, Statement>;
  insertEdge: ReadonlyMap<EdgeKind, Statement>;
  rowOf: (node: GraphNode, owner: string | null) => unknown[];
  /** Rewrites the conversation's message counts, state row and the store's version. */
  finish: (batch: GraphBatch, hash: string, deep: boolean) => void;
}

/** What {@link batchPatcher} did: `replace` means a node went and the conversation needs a rewrite. */
export type PatchOutcome = 'patched' | 'replace';

/**
 * Writes only what changed between a conversation's previous batch and its next one: new nodes
 * and edges are inserted, nodes whose properties changed are updated (and their text indexed
 * again), edges gone are deleted (a followed log's IMPORTED edge moves to the Import of its new
 * checksum at each append); nothing else is touched. This is what keeps appending one line to
 * a long session log as cheap as to a short one: the full rewrite deletes and re-indexes every
 * message. A change that removes a node is not additive (a rewritten log): the caller rewrites
 * the conversation whole instead. Runs inside the caller's transaction.
 */
export function batchPatcher(
  db: Database.Database,
  deps: PatchDeps,
): (previous: GraphBatch, next: GraphBatch, hash: string, deep: boolean) => PatchOutcome {
  const indexed = new Map(
    FULL_TEXT.map(({ table, label }) => [
      label as string,
      {
        row: db.prepare(`SELECT rowid, content FROM ${quote(label)} WHERE id = ?`),
        remove: db.prepare(
          `INSERT INTO ${table} (${table}, rowid, content) VALUES ('delete', ?, ?)`,
        ),
        add: db.prepare(`INSERT INTO ${table} (rowid, content) VALUES (?, ?)`),
      },
    ]),
  );
  const removeEdge = new Map(
    EDGE_KINDS.map((kind) => [
      kind,
      db.prepare(`DELETE FROM ${quote(kind)} WHERE src = ? AND dst = ?`),
    ]),
  );
  return (previous, next, hash, deep) => {
    // A grown conversation's projection gives unchanged nodes and edges again as the same
    // objects (see ProjectMemo): only the others are compared, by id and properties.
    const nodes = changes(previous.nodes, next.nodes);
    const before = new Map(nodes.left.map((node) => [node.id, node]));
    const freshIds = new Set(nodes.fresh.map((node) => node.id));
    if (nodes.left.some((node) => !freshIds.has(node.id))) return 'replace';
    const edges = changes(previous.edges, next.edges);
    const freshEdges = edgeIndex(edges.fresh);
    for (const edge of edges.left)
      if (!hasEdge(freshEdges, edge)) removeEdge.get(edge.kind)?.run(edge.from, edge.to);
    const edgesBefore = edgeIndex(edges.left);
    for (const node of nodes.fresh) {
      const old = before.get(node.id);
      if (old && sameProperties(old, node)) continue;
      writeNode(node, old !== undefined, next.owner);
    }
    for (const edge of edges.fresh)
      if (!hasEdge(edgesBefore, edge))
        deps.insertEdge.get(edge.kind)?.run(edge.from, edge.to, next.owner);
    deps.finish(next, hash, deep);
    return 'patched';
  };

  function writeNode(node: GraphNode, existed: boolean, owner: string): void {
    const text = indexed.get(node.label);
    const shared = SHARED_LABELS.has(node.label);
    // The text index is external-content: the old words come out before the row changes.
    if (text && existed) {
      const row = text.row.get(node.id) as { rowid: number; content: unknown } | undefined;
      if (row) text.remove.run(row.rowid, typeof row.content === 'string' ? row.content : '');
    }
    deps.insertNode.get(node.label)?.run(...deps.rowOf(node, shared ? null : owner));
    if (text) {
      const row = text.row.get(node.id) as { rowid: number } | undefined;
      const content = node.properties.content;
      if (row) text.add.run(row.rowid, typeof content === 'string' ? content : '');
    }
  }
}

/** What of `previous` is not in `next` (as the same object), and what of `next` is new. */
function changes<T extends object>(
  previous: readonly T[],
  next: readonly T[],
): { left: T[]; fresh: T[] } {
  const kept = new Set(next);
  const had = new Set(previous);
  return {
    left: previous.filter((item) => !kept.has(item)),
    fresh: next.filter((item) => !had.has(item)),
  };
}

// Edges by kind, then source, then target: no key strings made for tens of thousands of edges.
type EdgeIndex = Map<string, Map<string, Set<string>>>;

function edgeIndex(edges: readonly GraphEdge[]): EdgeIndex {
  const index: EdgeIndex = new Map();
  for (const edge of edges) {
    const bySource = index.get(edge.kind) ?? new Map<string, Set<string>>();
    index.set(edge.kind, bySource);
    const targets = bySource.get(edge.from) ?? new Set<string>();
    bySource.set(edge.from, targets);
    targets.add(edge.to);
  }
  return index;
}

function hasEdge(index: EdgeIndex, edge: GraphEdge): boolean {
  return index.get(edge.kind)?.get(edge.from)?.has(edge.to) === true;
}

function sameProperties(a: GraphNode, b: GraphNode): boolean {
  if (a.label !== b.label) return false;
  const keys = Object.keys(b.properties);
  if (keys.length !== Object.keys(a.properties).length) return false;
  return keys.every((key) => a.properties[key] === b.properties[key]);
}
