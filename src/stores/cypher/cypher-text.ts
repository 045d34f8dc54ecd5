import { EDGES, EDGE_KINDS, LABEL_NAMES, edgeTypeName, type Label } from '../../graph/schema.js';
import { QueryError } from '../store.js';
import { codeOnly } from './cypher-tokens.js';

export { assertReadOnly } from './read-only-guard.js';

/** What a query touches: the labels and relationship types it names, and whether it needs the whole graph. */
export interface QueryFootprint {
  labels: Set<Label>;
  all: boolean;
}

const KNOWN_TYPES = new Set(EDGE_KINDS.map(edgeTypeName));

/**
 * Reads the labels and types a query names; an unknown one is an error (Neo4j would only warn
 * and return nothing, which hides typos). Untyped relationships or unlabeled, unconnected
 * nodes need the whole graph.
 */
export function footprint(query: string): QueryFootprint {
  const text = codeOnly(query);
  const labels = new Set<Label>();
  for (const match of text.matchAll(
    /\(\s*[A-Za-z_][A-Za-z0-9_]*\s*((?::\s*`?[A-Za-z_][A-Za-z0-9_]*`?\s*)+)|\(\s*((?::\s*`?[A-Za-z_][A-Za-z0-9_]*`?\s*)+)/g,
  )) {
    const chain = match[1] ?? match[2] ?? '';
    for (const label of chain
      .split(':')
      .map((s) => s.replace(/[`\s]/g, ''))
      .filter(Boolean)) {
      if (!(LABEL_NAMES as string[]).includes(label)) {
        throw new QueryError(
          `unknown label :${label}; the graph has ${LABEL_NAMES.map((l) => `:${l}`).join(', ')}`,
        );
      }
      labels.add(label as Label);
    }
  }
  let all = false;
  for (const match of text.matchAll(/\[\s*([A-Za-z_][A-Za-z0-9_]*)?\s*(:[^\]*{]*)?[^\]]*\]/g)) {
    const types = (match[2] ?? '')
      .replace(/^:/, '')
      .split('|')
      .map((s) => s.replace(/[`:\s]/g, ''))
      .filter(Boolean);
    if (types.length === 0) all = true;
    for (const type of types) {
      if (!KNOWN_TYPES.has(type)) {
        throw new QueryError(
          `unknown relationship type :${type}; the graph has ${[...KNOWN_TYPES].map((t) => `:${t}`).join(', ')}`,
        );
      }
      for (const kind of EDGE_KINDS) {
        if (edgeTypeName(kind) === type) {
          labels.add(EDGES[kind].from);
          labels.add(EDGES[kind].to);
        }
      }
    }
  }
  // `--`, `-->` and `<--` are relationships without a type.
  if (/\)\s*<?--?>?\s*\(/.test(text.replace(/\[[^\]]*\]/g, ''))) all = true;
  if (labels.size === 0) all = true;
  return { labels, all };
}
