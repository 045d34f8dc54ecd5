import type { SqliteStoreQuery } from '../../read/sqlite-query.js';

/** The only `ItemTable` keys read: the chats of older Cursor. The table also holds login tokens. */
export const CHAT_ITEM_KEYS = [
  'workbench.panel.aichat.view.aichat.chatdata',
  'composer.composerData',
];

/**
 * Cursor's `state.vscdb` (VS Code's key-value store). The global one keeps each composer (chat
 * or agent session) as `composerData:<id>` in `cursorDiskKV`, and since 0.45 each of its
 * messages as `bubbleId:<composerId>:<bubbleId>` (read by key range, which the key's index
 * serves); a workspace's keeps older chats under two `ItemTable` keys. Nothing else is
 * selected: the same `ItemTable` holds Cursor's login tokens (`cursorAuth/…`).
 */
export const CURSOR_STORE: SqliteStoreQuery = {
  name: "Cursor's state.vscdb",
  sources: [
    {
      kind: 'composer',
      tables: ['cursorDiskKV'],
      sessions: {
        // Cursor writes a composer for every chat opened, sent or not: those with no message
        // are left out here, not reported as lost. A value that is not JSON is still read (and
        // reported by its key).
        sql: `SELECT key, value, substr(key, 14) AS composerId FROM cursorDiskKV
              WHERE key >= 'composerData:' AND key < 'composerData;' AND value IS NOT NULL
              AND (NOT json_valid(CAST(value AS TEXT))
                OR coalesce(json_array_length(CAST(value AS TEXT), '$.fullConversationHeadersOnly'), 0)
                 + coalesce(json_array_length(CAST(value AS TEXT), '$.conversation'), 0) > 0)
              ORDER BY key`,
        key: 'key',
        json: ['value'],
      },
      parts: {
        bubbles: {
          sql: `SELECT key, value FROM cursorDiskKV
                WHERE key >= 'bubbleId:' || :composerId || ':' AND key < 'bubbleId:' || :composerId || ';'
                AND value IS NOT NULL`,
          key: 'key',
          json: ['value'],
        },
      },
    },
    {
      kind: 'item',
      tables: ['ItemTable'],
      sessions: {
        sql: `SELECT key, value FROM ItemTable WHERE key IN (${CHAT_ITEM_KEYS.map((k) => `'${k}'`).join(', ')}) ORDER BY key`,
        key: 'key',
        json: ['value'],
      },
    },
  ],
};
