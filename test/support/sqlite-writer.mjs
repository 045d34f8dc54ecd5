// An agent writing its SQLite store, in a process of its own: it opens the store, keeps it
// open (so its -wal and -shm stay as a running agent leaves them), runs each SQL text it is
// sent on stdin (one JSON string a line) and answers "ok" (or "error: …") on stdout.
// argv: the store's path, then "wal" or "rollback".
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3-multiple-ciphers';

const [path, mode] = process.argv.slice(2);
const db = new Database(path);
if (mode === 'wal') {
  db.pragma('journal_mode = WAL');
  // Nothing is checkpointed: commits stay in the -wal, as between an agent's checkpoints.
  db.pragma('wal_autocheckpoint = 0');
} else db.pragma('journal_mode = DELETE');
process.stdout.write('ready\n');
for await (const line of createInterface({ input: process.stdin })) {
  try {
    db.exec(JSON.parse(line));
    process.stdout.write('ok\n');
  } catch (error) {
    process.stdout.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  }
}
