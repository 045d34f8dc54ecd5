import type Database from 'better-sqlite3-multiple-ciphers';
import type { GraphNode } from '../../graph/graph-batch.js';
import {
  edgeIndex,
  hasEdge,
  removesNode,
  sameNode,
  type GraphDelta,
} from '../../graph/graph-delta.js';
import { EDGE_KINDS, SHARED_LABELS, type EdgeKind, type Label } from '../../graph/schema.js';
import { FULL_TEXT } from './full-text.js';
import { batchLanguage } from '../batch-language.js';
import type { StemsWriter } from './stemmed-full-text.js';
import type { StemLanguage } from '../../search/stemming.js';
import { quote } from './sqlite-schema.js';
import { z } from 'zod';
import { sqliteRow } from './sqlite-rows.js';
import { addTokenCounts, tokenCountStatements, tokenCounts } from './sqlite-token-counts.js';

// A row of the full-text index's table, and the text it holds (to take its words out).
const TextRow = z.object({ rowid: z.number(), content: z.unknown() });

type Statement = Database.Statement;

/** What the patcher borrows from the store (its prepared statements and row helpers). */
export interface PatchDeps {
  insertNode: ReadonlyMap<Label, Statement>;
  insertEdge: ReadonlyMap<EdgeKind, Statement>;
  rowOf: (node: GraphNode, owner: string | null) => unknown[];
  /** The stemmed copy of message text (see stemmed-full-text.ts). */
  stems: StemsWriter;
  /** Records the conversation's content hash and the store's version. */
  finish: (owner: string, hash: string, deep: boolean) => void;
}

/** What {@link deltaPatcher} did: `replace` means a node went and the conversation needs a rewrite. */
export type PatchOutcome = 'patched' | 'replace';

/**
 * Writes a conversation's delta (see `GraphDelta`): edges gone are deleted, new nodes inserted,
 * nodes whose properties changed updated (and their text indexed again), new edges inserted,
 * message and token counts moved by the messages left and new; nothing else is touched. This is what
 * keeps appending one line to a long session log as cheap as to a short one: the full rewrite
 * deletes and re-indexes every message. A delta that takes a node away is not additive (a
 * rewritten log): the caller rewrites the conversation whole instead. Runs inside the
 * caller's transaction.
 */
export function deltaPatcher(
  db: Database.Database,
  deps: PatchDeps,
): (delta: GraphDelta, hash: string, deep: boolean) => PatchOutcome {
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
  const counts = {
    add: db.prepare(
      `INSERT INTO message_counts (owner, month, role, model, messages) VALUES (?, ?, ?, ?, ?) ON CONFLICT(owner, month, role, model) DO UPDATE SET messages = messages + excluded.messages`,
    ),
    prune: db.prepare(`DELETE FROM message_counts WHERE owner = ? AND messages <= 0`),
  };
  const tokens = tokenCountStatements(db);
  return (delta, hash, deep) => {
    if (removesNode(delta)) return 'replace';
    const { left, fresh, owner } = delta;
    const freshEdges = edgeIndex(fresh.edges);
    for (const edge of left.edges)
      if (!hasEdge(freshEdges, edge)) removeEdge.get(edge.kind)?.run(edge.from, edge.to);
    const before = new Map(left.nodes.map((node) => [node.id, node]));
    let language: StemLanguage | undefined | null = null;
    for (const node of fresh.nodes) {
      const old = before.get(node.id);
      if (old && sameNode(old, node)) continue;
      // Detected once a patch, from what it holds of the conversation (old and new).
      if (node.label === 'Message' && language === null)
        language = batchLanguage([...left.nodes, ...fresh.nodes]);
      writeNode(node, old !== undefined, owner, language ?? undefined);
    }
    const edgesBefore = edgeIndex(left.edges);
    for (const edge of fresh.edges)
      if (!hasEdge(edgesBefore, edge))
        deps.insertEdge.get(edge.kind)?.run(edge.from, edge.to, owner);
    const moved = messageCounts(fresh.nodes, 1, messageCounts(left.nodes, -1));
    for (const [key, by] of moved) if (by !== 0) counts.add.run(owner, ...key.split('\u0000'), by);
    counts.prune.run(owner);
    addTokenCounts(tokens, owner, tokenCounts(fresh.nodes, 1, tokenCounts(left.nodes, -1)));
    tokens.prune.run(owner);
    deps.finish(owner, hash, deep);
    return 'patched';
  };

  function writeNode(
    node: GraphNode,
    existed: boolean,
    owner: string,
    language: StemLanguage | undefined,
  ): void {
    const text = indexed.get(node.label);
    const shared = SHARED_LABELS.has(node.label);
    // The text index is external-content: the old words come out before the row changes.
    const old = text && existed ? sqliteRow(TextRow, text.row.get(node.id), node.label) : undefined;
    if (text && old) text.remove.run(old.rowid, typeof old.content === 'string' ? old.content : '');
    deps.insertNode.get(node.label)?.run(...deps.rowOf(node, shared ? null : owner));
    if (text) {
      const row = sqliteRow(TextRow, text.row.get(node.id), node.label);
      const content = node.properties.content;
      if (row) text.add.run(row.rowid, typeof content === 'string' ? content : '');
      if (row && node.label === 'Message') {
        if (existed) deps.stems.remove(row.rowid, old?.content);
        deps.stems.add(row.rowid, content, language);
      }
    }
  }
}

/** Messages counted per month, role and model (keys joined by NUL), each counting `by`. */
export function messageCounts(
  nodes: readonly GraphNode[],
  by: number,
  counts = new Map<string, number>(),
): Map<string, number> {
  for (const node of nodes) {
    if (node.label !== 'Message') continue;
    const p = node.properties;
    const month = typeof p.created_at === 'string' ? p.created_at.slice(0, 7) : '';
    const key = [
      month,
      typeof p.role === 'string' ? p.role : '',
      typeof p.model_slug === 'string' ? p.model_slug : '',
    ].join('\u0000');
    counts.set(key, (counts.get(key) ?? 0) + by);
  }
  return counts;
}
