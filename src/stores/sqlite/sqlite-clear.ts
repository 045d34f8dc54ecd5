import type Database from 'better-sqlite3-multiple-ciphers';
import { EDGE_KINDS, LABEL_NAMES } from '../../graph/schema.js';
import { clearFullText } from './full-text.js';
import { clearConversationWords } from './conversation-words.js';
import { SqliteMemories } from './sqlite-memories.js';
import { quote } from './sqlite-schema.js';
import type { SqliteVectors } from './sqlite-vectors.js';

/** Empties the store in one transaction, and gives it a new version mark (`SqliteStore.clear`). */
export function clearStore(db: Database.Database, vectors: SqliteVectors): void {
  db.transaction(() => {
    for (const label of LABEL_NAMES) db.exec(`DELETE FROM ${quote(label)}`);
    for (const kind of EDGE_KINDS) db.exec(`DELETE FROM ${quote(kind)}`);
    db.exec(`DELETE FROM conversation_state`);
    db.exec(`DELETE FROM message_counts; DELETE FROM token_counts`);
    vectors.dropAll();
    clearFullText(db);
    clearConversationWords(db);
    SqliteMemories.clear(db);
    db.prepare(
      `INSERT INTO meta (key, value) VALUES ('version', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value`,
    ).run(`cleared-${Date.now()}`);
  })();
}
