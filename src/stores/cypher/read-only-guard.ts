import { QueryError } from '../store.js';
import { tokenize, type CypherToken } from './cypher-tokens.js';

/**
 * Clauses that change the graph, the schema or the server, or reach outside it (LOAD CSV reads
 * files and URLs; USE switches database; TERMINATE stops other people's queries). INSERT is
 * GQL's CREATE, which Grafeo also reads; TRANSACTIONS is `CALL {…} IN TRANSACTIONS`.
 */
const REFUSED = new Set([
  'CREATE',
  'MERGE',
  'SET',
  'REMOVE',
  'DELETE',
  'DETACH',
  'DROP',
  'FOREACH',
  'LOAD',
  'INSERT',
  'ALTER',
  'RENAME',
  'GRANT',
  'REVOKE',
  'DENY',
  'TERMINATE',
  'USE',
  'START',
  'STOP',
  'ENABLE',
  'TRANSACTIONS',
  'COMMIT',
  'ROLLBACK',
]);

/**
 * Procedures a query may CALL: they read, and their cost grows about linearly with the graph.
 * Left out on purpose: anything that writes (none is listed), `grafeo.floyd_warshall` (n³),
 * betweenness and closeness centrality and Bellman-Ford (n·m), clustering coefficients
 * (triangles), the flow algorithms, and every `dbms.*`, `apoc.*` and `gds.*` procedure.
 */
export const ALLOWED_PROCEDURES: ReadonlySet<string> = new Set([
  'db.labels',
  'db.relationshiptypes',
  'db.propertykeys',
  'db.schema.visualization',
  'db.schema.nodetypeproperties',
  'db.schema.reltypeproperties',
  'db.index.fulltext.querynodes',
  'grafeo.procedures',
  'grafeo.labels',
  'grafeo.relationshiptypes',
  'grafeo.propertykeys',
  'grafeo.bfs',
  'grafeo.dfs',
  'grafeo.dijkstra',
  'grafeo.sssp',
  'grafeo.connected_components',
  'grafeo.strongly_connected_components',
  'grafeo.degree_centrality',
  'grafeo.pagerank',
  'grafeo.label_propagation',
  'grafeo.louvain',
  'grafeo.kcore',
  'grafeo.topological_sort',
  'grafeo.articulation_points',
  'grafeo.bridges',
  'grafeo.kruskal',
  'grafeo.prim',
]);

/** A backtick-quoted name as the name it stands for. */
function nameOf(token: CypherToken): string {
  return token.kind === 'quoted' ? token.text.slice(1, -1).replace(/``/g, '`') : token.text;
}

// `CALL a.b.c(` names a procedure; `CALL {` and `CALL (x) {` are subqueries.
function procedureAt(tokens: CypherToken[], start: number): string | undefined {
  const parts: string[] = [];
  let i = start;
  for (;;) {
    const token = tokens[i];
    if (!token || (token.kind !== 'word' && token.kind !== 'quoted')) break;
    parts.push(nameOf(token));
    if (tokens[i + 1]?.text !== '.') break;
    i += 2;
  }
  return parts.length > 0 ? parts.join('.') : undefined;
}

/**
 * Refuses, before anything runs, a query that writes or calls a procedure not on
 * {@link ALLOWED_PROCEDURES}. This is the fast first refusal, read from real tokens (so a
 * keyword inside a string, a comment or a quoted name is not one, and `//` inside a string
 * hides nothing); how the query then runs is what makes it read-only (see `query-child`).
 */
export function assertReadOnly(query: string): void {
  const tokens = tokenize(query);
  // Nothing but whitespace and comments (the Neo4j driver fails on it as on a lost connection).
  if (tokens.length === 0) throw new QueryError('the query is empty');
  tokens.forEach((token, i) => {
    if (token.kind !== 'word') return;
    // `n.set` and `db.create…` are names, not clauses.
    if (tokens[i - 1]?.text === '.') return;
    const word = token.text.toUpperCase();
    if (REFUSED.has(word)) {
      throw new QueryError(
        `writes are refused: this store is read-only through Cypher (found ${word})`,
      );
    }
    if (word === 'CALL') {
      const name = procedureAt(tokens, i + 1);
      if (name !== undefined && !ALLOWED_PROCEDURES.has(name.toLowerCase()))
        throw new QueryError(
          `the procedure ${name} is not allowed: only procedures that read and scale with the graph are (${[...ALLOWED_PROCEDURES].join(', ')})`,
        );
    }
  });
}
