import type Database from 'better-sqlite3-multiple-ciphers';
import type { GraphSource } from '../cypher/grafeo-projection.js';
import { EDGE_KINDS, LABEL_NAMES, type Label } from '../../graph/schema.js';
import { CYPHER_TEXT_CHARACTERS } from '../cypher/cypher-text-bound.js';
import { columnsOf, quote, typesOf } from './sqlite-schema.js';

/** A column as Cypher reads it: strings cut to their first {@link CYPHER_TEXT_CHARACTERS} (SQLite counts characters). */
function bounded(label: Label): (column: string) => string {
  const types = typesOf(label);
  return (column) =>
    types[column] === 'string'
      ? `substr(${quote(column)}, 1, ${CYPHER_TEXT_CHARACTERS}) AS ${quote(column)}`
      : quote(column);
}

/** The graph tables of a SQLite store as the Cypher projection reads them. */
export function sqliteGraphSource(db: Database.Database): GraphSource {
  const versionOf = db.prepare(`SELECT value FROM meta WHERE key = 'version'`).pluck();
  const nodeQueries = new Map(
    LABEL_NAMES.map((label) => [
      label,
      db.prepare(
        `SELECT ${['id', ...columnsOf(label)].map(bounded(label)).join(', ')} FROM ${quote(label)}`,
      ),
    ]),
  );
  const edgeQueries = new Map(
    EDGE_KINDS.map((kind) => [kind, db.prepare(`SELECT src, dst FROM ${quote(kind)}`)]),
  );
  return {
    *nodes(label) {
      const booleans = Object.entries(typesOf(label))
        .filter(([, type]) => type === 'boolean')
        .map(([name]) => name);
      for (const row of nodeQueries.get(label)?.iterate() ?? []) {
        const record = row as Record<string, unknown>;
        // SQLite stores booleans as 0/1; the graph (and Cypher) sees true/false.
        for (const name of booleans)
          if (typeof record[name] === 'number') record[name] = record[name] === 1;
        yield record;
      }
    },
    *edges(kind) {
      for (const row of edgeQueries.get(kind)?.iterate() ?? [])
        yield row as { src: string; dst: string };
    },
    version() {
      const value: unknown = versionOf.get();
      return typeof value === 'string' ? value : '';
    },
  };
}
