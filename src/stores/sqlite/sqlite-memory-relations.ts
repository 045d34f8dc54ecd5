import type Database from 'better-sqlite3-multiple-ciphers';
import type { Relation } from '../../model/pam.js';
import { RELATION_EDGE_KINDS, RELATION_EDGES } from '../memory-index.js';
import { quote } from './sqlite-schema.js';

/**
 * Writes PAM relations as edges between Memory nodes (one table per relation type), each only
 * when the store holds both memories; owned by no conversation (owner null), so deleting or
 * re-importing one leaves them. Run inside the caller's transaction.
 */
export function writeMemoryRelations(
  db: Database.Database,
  relations: readonly Relation[],
  options: { clear: boolean },
): void {
  if (options.clear) for (const kind of RELATION_EDGE_KINDS) db.exec(`DELETE FROM ${quote(kind)}`);
  if (relations.length === 0) return;
  const inserts = new Map(
    Object.entries(RELATION_EDGES).map(([type, kind]) => [
      type,
      db.prepare(
        `INSERT OR IGNORE INTO ${quote(kind)} (src, dst, owner) SELECT ?, ?, NULL
         WHERE EXISTS (SELECT 1 FROM "Memory" WHERE id = ?) AND EXISTS (SELECT 1 FROM "Memory" WHERE id = ?)`,
      ),
    ]),
  );
  for (const relation of relations)
    inserts.get(relation.type)?.run(relation.from, relation.to, relation.from, relation.to);
}
