import type { SqliteStoreQuery } from '../../read/sqlite-query.js';

/**
 * Zed's agent threads (`threads/threads.db`, crates/agent/src/db.rs): one `threads` row per
 * thread, its whole conversation as JSON in `data`, plain (`data_type` json) or a zstd frame
 * (zstd, the current form); newer rows add `parent_id` (a sub-agent's parent), `folder_paths`
 * and `created_at`.
 */
export const ZED_STORE: SqliteStoreQuery = {
  name: "Zed's threads.db",
  sources: [
    {
      kind: 'threads',
      tables: ['threads'],
      sessions: { sql: 'SELECT * FROM threads ORDER BY updated_at, id', key: 'id', json: ['data'] },
    },
  ],
};
