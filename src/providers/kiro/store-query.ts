import type { SqliteStoreQuery } from '../../read/sqlite-query.js';

/**
 * Kiro CLI's `data.sqlite3` (the store it took over from Amazon Q Developer CLI): each
 * conversation's whole state as JSON, in `conversations_v2` (one row per folder and
 * conversation, the latest kept) and, before it, in `conversations` (one per folder). The
 * same file holds the login (`auth_kv`), which is never selected.
 */
export const KIRO_STORE: SqliteStoreQuery = {
  name: "Kiro CLI's data.sqlite3",
  sources: [
    {
      kind: 'conversations_v2',
      tables: ['conversations_v2'],
      sessions: {
        sql: `SELECT c.conversation_id, c.key, c.value, c.created_at, c.updated_at FROM conversations_v2 c
              WHERE NOT EXISTS (SELECT 1 FROM conversations_v2 d WHERE d.conversation_id = c.conversation_id
                AND (d.updated_at > c.updated_at OR (d.updated_at = c.updated_at AND d.key > c.key)))
              ORDER BY c.created_at, c.conversation_id`,
        key: 'conversation_id',
        json: ['value'],
      },
    },
    {
      kind: 'conversations',
      tables: ['conversations'],
      sessions: {
        sql: 'SELECT key, value FROM conversations ORDER BY key',
        key: 'key',
        json: ['value'],
      },
    },
  ],
};
