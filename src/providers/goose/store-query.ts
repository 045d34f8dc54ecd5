import type { SqliteStoreQuery } from '../../read/sqlite-query.js';

/**
 * Goose's `sessions.db` (crates/goose/src/session/session_manager.rs): a `sessions` row per
 * session (its working folder, name, type and token totals) and its `messages`, each with its
 * content blocks as JSON in `content_json`; newer stores add a `usage_ledger` of each model
 * call's tokens.
 */
export const GOOSE_STORE: SqliteStoreQuery = {
  name: "Goose's sessions.db",
  sources: [
    {
      kind: 'sqlite',
      tables: ['sessions', 'messages'],
      sessions: { sql: 'SELECT * FROM sessions ORDER BY created_at, id', key: 'id' },
      parts: {
        messages: {
          sql: 'SELECT * FROM messages WHERE session_id = :id ORDER BY created_timestamp, id',
          key: 'id',
          json: ['content_json', 'metadata_json'],
        },
        usage: {
          sql: 'SELECT * FROM usage_ledger WHERE session_id = :id ORDER BY created_timestamp, id',
          key: 'id',
          tables: ['usage_ledger'],
        },
      },
    },
  ],
};
