import {
  EDGES,
  LABELS,
  LABEL_NAMES,
  SHARED_LABELS,
  edgeTypeName,
  type EdgeKind,
  type Label,
} from '../../graph/schema.js';
import { stemsIndexStatement, textIndexStatement } from './neo4j-full-text.js';

/**
 * The graph in Neo4j: the seed's labels and relationship types as they are, `id` unique per
 * label, and a few properties of chatgraph's own, all starting with `_` and never returned by
 * queries: `_owner` (the conversation a node belongs to), `_seq` (a message's place in its
 * conversation), `_hash` and `_deep` (on a Conversation: what it was written from).
 */

/** The node holding the store's own settings (deep mode). */
export const META_LABEL = 'ChatgraphMeta';

/**
 * Marks the store as holding stemmed text (`_stems` on some message): a search reads the
 * stemmed index only then, since querying it beside the English index cost a search about
 * 15 ms even when it was empty (measured at 100,000 English messages), and most histories are.
 */
export const MARK_STEMMED = `MERGE (s:${META_LABEL} {key: 'store'}) SET s.stemmed = true`;

/** Labels whose nodes belong to one conversation (deleted with it). */
export const OWNED_LABELS: readonly Label[] = LABEL_NAMES.filter((l) => !SHARED_LABELS.has(l));

/** Indexes beyond the keys: what the commands and the seed's queries look nodes up by. */
const INDEXED: Partial<Record<Label, readonly string[]>> = {
  Conversation: ['conversation_id', 'source', 'created_at'],
  Message: ['conversation_id', 'created_at', 'response_id'],
  Document: ['template_id', 'conversation_id'],
  Import: ['checksum'],
};

/** Statements that create the constraints and indexes (idempotent). */
export function schemaStatements(): string[] {
  const statements: string[] = [];
  for (const label of LABEL_NAMES) {
    statements.push(
      `CREATE CONSTRAINT chatgraph_${label}_id IF NOT EXISTS FOR (n:${label}) REQUIRE n.id IS UNIQUE`,
    );
    if (!SHARED_LABELS.has(label)) {
      statements.push(
        `CREATE INDEX chatgraph_${label}__owner IF NOT EXISTS FOR (n:${label}) ON (n._owner)`,
      );
    }
    for (const property of INDEXED[label] ?? []) {
      statements.push(
        `CREATE INDEX chatgraph_${label}_${property} IF NOT EXISTS FOR (n:${label}) ON (n.${property})`,
      );
    }
  }
  statements.push(
    `CREATE CONSTRAINT chatgraph_${META_LABEL}_key IF NOT EXISTS FOR (n:${META_LABEL}) REQUIRE n.key IS UNIQUE`,
    textIndexStatement(),
    stemsIndexStatement(),
    // A message id typed short is the start of its message part: `id CONTAINS ':' + prefix`.
    `CREATE TEXT INDEX chatgraph_Message_id_text IF NOT EXISTS FOR (n:Message) ON (n.id)`,
    // Vectors are deleted with their conversation, found by owner like its other nodes.
    `CREATE INDEX chatgraph_ChatgraphVector__owner IF NOT EXISTS FOR (n:ChatgraphVector) ON (n._owner)`,
    `CREATE INDEX chatgraph_ChatgraphVector_node IF NOT EXISTS FOR (n:ChatgraphVector) ON (n.node_id)`,
  );
  return statements;
}

/** The MERGE of one label's nodes from `$rows` of `{id, props}`. */
export function mergeNodes(label: Label): string {
  return `UNWIND $rows AS row MERGE (n:${label} {id: row.id}) SET n += row.props`;
}

/**
 * The MERGE of one kind's edges from `$rows` of `{from, to}`. Ends that are shared nodes are
 * merged too: an IMPORTED edge may be written before its Import node is recorded.
 */
export function mergeEdges(kind: EdgeKind): string {
  const { from, to } = EDGES[kind];
  const end = (name: string, label: Label, key: string): string =>
    `${SHARED_LABELS.has(label) ? 'MERGE' : 'MATCH'} (${name}:${label} {id: row.${key}})`;
  return `UNWIND $rows AS row ${end('a', from, 'from')} WITH row, a ${end('b', to, 'to')} MERGE (a)-[:${edgeTypeName(kind)}]->(b)`;
}

/** The count of one kind's edges (trace steps' NEXT told apart by its ends). */
export function countEdges(kind: EdgeKind): string {
  const { from, to } = EDGES[kind];
  return `MATCH (:${from})-[r:${edgeTypeName(kind)}]->(:${to}) RETURN count(r) AS n`;
}

/** Integer properties of a label (sent as Neo4j integers, not floats). */
export function integerProperties(label: Label): Set<string> {
  return new Set(
    Object.entries(LABELS[label].properties)
      .filter(([, type]) => type === 'integer')
      .map(([name]) => name),
  );
}
