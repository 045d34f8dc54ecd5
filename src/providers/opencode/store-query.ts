import type { SqliteStoreQuery } from '../../read/sqlite-query.js';

/**
 * OpenCode's `opencode.db` (packages/opencode/src/session/session.sql.ts): a `session` row per
 * session, its `message` rows and their `part` rows, each with its content as JSON in `data`,
 * and the `project` it belongs to. Parts are found through their message: older databases have
 * no `part.session_id`.
 */
export const OPENCODE_STORE: SqliteStoreQuery = {
  name: "OpenCode's opencode.db",
  sources: [
    {
      kind: 'sqlite',
      tables: ['session', 'message', 'part', 'project'],
      sessions: { sql: 'SELECT * FROM session ORDER BY time_created, id', key: 'id' },
      parts: {
        project: {
          sql: 'SELECT * FROM project WHERE id = :project_id',
          key: 'id',
        },
        messages: {
          sql: 'SELECT * FROM message WHERE session_id = :id ORDER BY time_created, id',
          key: 'id',
          json: ['data'],
        },
        parts: {
          sql: 'SELECT p.* FROM part p JOIN message m ON m.id = p.message_id WHERE m.session_id = :id ORDER BY p.message_id, p.id',
          key: 'id',
          json: ['data'],
        },
      },
    },
  ],
};
