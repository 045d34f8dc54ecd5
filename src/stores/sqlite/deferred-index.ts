import type Database from 'better-sqlite3-multiple-ciphers';
import { MESSAGE_LOCAL_ID_INDEX } from './sqlite-schema.js';

/**
 * The index of message ids typed short (`message_local_id`, a random key per message) left out
 * while the first import fills a store that holds no message yet, and made once after it, by a
 * sort: each insert into it touched a page of its own, anywhere in the index (the 200 MB
 * export's rows, replayed: 5.2–6.5 CPU-seconds with it, 4.3–5.5 without it and the index made
 * after; with message_fts and the conversation words too, 0.6–0.8 less; `bench/import-floor.mjs`,
 * docs/performance.md).
 *
 * Dropped in the first group's transaction, so it is gone only where messages were committed
 * without it; made again when the writer ends or the store closes, and by any writable open
 * (its `CREATE INDEX IF NOT EXISTS` is in the schema), so a killed import leaves it missing only
 * until the store is next opened to write. Meanwhile a short message id is found by a scan of
 * the messages: the same answer, slower. A store that holds messages keeps the index as it is
 * (made afresh, it would cost more than the import's own inserts).
 */
export class DeferredIndex {
  private decided = false;
  private dropped = false;

  /** Inside the open transaction of a writer's first write: drops the index if the store is fresh. */
  begin(db: Database.Database): void {
    if (this.decided) return;
    this.decided = true;
    if (db.prepare(`SELECT 1 FROM "Message" LIMIT 1`).get() !== undefined) return;
    db.exec(`DROP INDEX IF EXISTS message_local_id`);
    this.dropped = true;
  }

  /** Outside a transaction, after the last commit: makes the index again (a commit of its own). */
  restore(db: Database.Database): void {
    if (!this.dropped) return;
    db.exec(MESSAGE_LOCAL_ID_INDEX);
    this.dropped = false;
    // A later writer of the same connection asks again.
    this.decided = false;
  }
}
