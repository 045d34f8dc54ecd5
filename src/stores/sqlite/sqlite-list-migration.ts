// The conversation list's part of the schema: an index per sort, and the preview column filled
// for conversations written before it existed. A step of its own in `migrate`.
import type Database from 'better-sqlite3-multiple-ciphers';
import { plainPreview } from '../../graph/preview.js';
import { NullableText, Text, sqliteRow, sqliteRows } from './sqlite-rows.js';

/**
 * One index per sort of a listing, key then id in the listing's own order, so a page is read
 * in order from the index (no sort, no scan) and a cursor seeks into it.
 */
export const LIST_INDEXES: Record<string, string> = {
  conversation_by_created: `"Conversation" (created_at DESC, id)`,
  conversation_by_oldest: `"Conversation" (created_at, id)`,
  conversation_by_updated: `"Conversation" (coalesce(updated_at, created_at) DESC, id)`,
  conversation_by_messages: `"Conversation" (message_count DESC, id)`,
  conversation_by_title: `"Conversation" (lower(name), id)`,
  // The list's source menu: a few sources among 100,000 rows, found by seeking (sourcesOf).
  conversation_by_source: `"Conversation" (source)`,
};

/** The sources, A to Z: an index seek for the first, then one for each next. */
export const SOURCES_SQL = `WITH RECURSIVE s(v) AS (
         SELECT min(source) FROM "Conversation"
         UNION ALL
         SELECT (SELECT min(source) FROM "Conversation" WHERE source > s.v) FROM s WHERE s.v IS NOT NULL
       ) SELECT v FROM s WHERE v IS NOT NULL`;

/**
 * The sources conversations have, A to Z: one index seek per source (a loose index scan), where
 * DISTINCT reads every row (over 100 ms at 100,000 conversations).
 */
export function sourcesOf(db: Database.Database): string[] {
  return sqliteRows(Text, db.prepare(SOURCES_SQL).pluck().all(), 'source');
}

/** Creates the listing's indexes, and fills the previews an older version did not write. */
export function upgradeListing(db: Database.Database): void {
  for (const [name, on] of Object.entries(LIST_INDEXES))
    db.exec(`CREATE INDEX IF NOT EXISTS ${name} ON ${on}`);
  backfillPreviews(db);
}

/** Whether a store lacks one of the listing's indexes. */
export function listingMissing(db: Database.Database): boolean {
  const have = new Set(
    sqliteRows(
      Text,
      db.prepare(`SELECT name FROM sqlite_master WHERE type = 'index'`).pluck().all(),
      'index name',
    ),
  );
  return Object.keys(LIST_INDEXES).some((name) => !have.has(name));
}

// A conversation written before previews: its first user message on the shown thread, once
// ('' when it has none, so it is not looked at again), and the model its messages name.
function backfillPreviews(db: Database.Database): void {
  const owners = sqliteRows(
    Text,
    db.prepare(`SELECT id FROM "Conversation" WHERE preview IS NULL`).pluck().all(),
    'conversation id',
  );
  if (owners.length === 0) return;
  const firstUser = db
    .prepare(
      `SELECT content FROM "Message" WHERE owner = ? AND position IS NOT NULL AND role = 'user'
       AND coalesce(hidden, 0) = 0 AND coalesce(is_thought, 0) = 0 ORDER BY position`,
    )
    .pluck();
  const firstModel = db
    .prepare(
      `SELECT model_slug FROM "Message" WHERE owner = ? AND position IS NOT NULL
       AND model_slug IS NOT NULL ORDER BY position LIMIT 1`,
    )
    .pluck();
  const update = db.prepare(
    `UPDATE "Conversation" SET preview = ?, model_slug = coalesce(model_slug, ?) WHERE id = ?`,
  );
  db.transaction(() => {
    for (const owner of owners) {
      let preview = '';
      for (const content of firstUser.iterate(owner)) {
        preview = plainPreview(sqliteRow(NullableText, content, 'message text') ?? '');
        if (preview !== '') break;
      }
      update.run(preview, firstModel.get(owner) ?? null, owner);
    }
  })();
}
