// What SQLite and FTS5 alone cost for an import's rows (issue 46 point 4): `node
// bench/import-floor.mjs STORE [--only fts|rows|words|all] [--runs 3]`. Reads a finished store (a
// data folder's chatgraph.sqlite, e.g. one `bench/import.mjs` or `chatgraph import` wrote) into
// memory, then writes the same rows into a fresh file with the store's pragmas, conversation by
// conversation in the same order and in groups of 2,000 conversations a commit (the import's
// GROUP_SIZE), timing only the writes and the close (CPU seconds of this process, all threads):
//   fts   each message's text into one FTS5 table with the store's tokenizer and prefixes
//         ('porter unicode61 remove_diacritics 2', prefix '2 3 4'; contentless; 8 MB hashsize);
//   rows  the node and edge rows with the store's own tables and indexes (no full-text tables);
//   words each conversation's texts joined into one contentless detail=none table (prefix '2 3');
//   all   the three in one file, as an import writes them.
// A floor, not a replay of everything: no stems, counts, conversation numbers or JS work.
// FLOOR_DIR: where the fresh files go (default the temporary folder); FLOOR_CACHE_KB: the page
// cache (default the store's 16 MB); FLOOR_DEFER=index,…: indexes made after the last commit.
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';

/** @typedef {{ type: string, name: string, tbl_name: string, sql: string }} SchemaRow */
/** @typedef {{ nodes: [string, unknown[]][], edges: [string, unknown[]][] }} Owned */
const args = process.argv.slice(2);
const option = (name, fallback) =>
  args.includes(name) ? (args[args.indexOf(name) + 1] ?? fallback) : fallback;
const source = args[0];
if (!source || source.startsWith('--')) throw new Error('usage: import-floor.mjs STORE [--only …]');
const only = option('--only', undefined);
const runs = Number(option('--runs', '3')) || 3;
const GROUP = 2000;
// Indexes left out while the rows go in, made after the last commit (timed with the writes).
const deferred = (process.env.FLOOR_DEFER ?? '').split(',').filter(Boolean);

const from = new Database(source, { readonly: true });
const schema = /** @type {SchemaRow[]} */ (
  from.prepare(`SELECT type, name, tbl_name, sql FROM sqlite_master WHERE sql IS NOT NULL`).all()
);
const virtual = new Set(
  schema.filter((r) => /CREATE VIRTUAL TABLE/i.test(r.sql)).map((r) => r.name),
);
const shadow = (name) => [...virtual].some((v) => name.startsWith(`${v}_`));
const edgeTables = schema
  .filter(
    (r) => r.type === 'table' && /\(src TEXT NOT NULL, dst TEXT NOT NULL, owner TEXT/.test(r.sql),
  )
  .map((r) => r.name);
const nodeTables = schema
  .filter(
    (r) =>
      r.type === 'table' &&
      /\(rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, owner TEXT/.test(r.sql),
  )
  .map((r) => r.name);
const conversations = /** @type {string[]} */ (
  from.prepare(`SELECT owner FROM "Conversation" ORDER BY rowid`).pluck().all()
);
/** @type {Map<string, Owned>} */
const byOwner = new Map(conversations.map((o) => [o, { nodes: [], edges: [] }]));
/** Rows of no conversation (shared nodes: the import's) go with the first. @param {unknown} owner */
const ownedBy = (owner) =>
  /** @type {Owned} */ (byOwner.get(String(owner)) ?? byOwner.get(conversations[0] ?? ''));
/** @param {string} sql */
const rowsOf = (sql) => /** @type {unknown[][]} */ (from.prepare(sql).raw().all());
for (const table of nodeTables)
  for (const row of rowsOf(`SELECT * FROM "${table}" ORDER BY rowid`))
    ownedBy(row[2]).nodes.push([table, row.slice(1)]);
for (const table of edgeTables)
  for (const row of rowsOf(`SELECT src, dst, owner FROM "${table}"`))
    ownedBy(row[2]).edges.push([table, row]);
const texts = /** @type {[string, string | null][]} */ (
  rowsOf(`SELECT owner, content FROM "Message" ORDER BY rowid`)
);
/** @type {Map<string, string[]>} */
const textsByOwner = new Map();
for (const [owner, content] of texts) {
  const list = textsByOwner.get(owner) ?? [];
  list.push(content ?? '');
  textsByOwner.set(owner, list);
}
from.close();
const messages = texts.length;

function configure(db) {
  db.pragma('secure_delete = ON');
  db.pragma('page_size = 8192');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma(`cache_size = -${Number(process.env.FLOOR_CACHE_KB ?? 16384)}`);
  db.pragma('temp_store = MEMORY');
  db.pragma('wal_autocheckpoint = 16384');
}

function setUp(db, kind) {
  if (kind === 'fts' || kind === 'words') {
    const options =
      kind === 'fts'
        ? `content, content='', tokenize='porter unicode61 remove_diacritics 2', prefix='2 3 4'`
        : `content, content='', detail=none, tokenize='porter unicode61 remove_diacritics 2', prefix='2 3'`;
    db.exec(`CREATE VIRTUAL TABLE ${kind} USING fts5(${options})`);
    db.exec(`INSERT INTO ${kind} (${kind}, rank) VALUES ('hashsize', ${8 * 1024 * 1024})`);
    const insert = db.prepare(`INSERT INTO ${kind} (rowid, content) VALUES (?, ?)`);
    let rowid = 0;
    return (owner) => {
      const list = textsByOwner.get(owner) ?? [];
      if (kind === 'fts') for (const text of list) insert.run(++rowid, text);
      else insert.run(++rowid, list.join('\n'));
    };
  }
  for (const r of schema)
    if (!virtual.has(r.name) && !shadow(r.name) && r.type !== 'trigger') {
      const isRow = nodeTables.includes(r.tbl_name) || edgeTables.includes(r.tbl_name);
      if (isRow && !/sqlite_autoindex/.test(r.name) && !deferred.includes(r.name)) db.exec(r.sql);
    }
  const inserts = new Map();
  for (const table of nodeTables) {
    const columns = db.prepare(`SELECT name FROM pragma_table_info(?)`).pluck().all(table).slice(1);
    const quoted = columns.map((c) => `"${c}"`);
    inserts.set(
      table,
      db.prepare(
        `INSERT INTO "${table}" (${quoted.join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT(id) DO UPDATE SET ${quoted
          .slice(1)
          .map((c) => `${c} = excluded.${c}`)
          .join(', ')}`,
      ),
    );
  }
  for (const table of edgeTables)
    inserts.set(
      table,
      db.prepare(`INSERT OR IGNORE INTO "${table}" (src, dst, owner) VALUES (?, ?, ?)`),
    );
  return (owner) => {
    const { nodes, edges } = ownedBy(owner);
    for (const [table, row] of nodes) inserts.get(table).run(...row);
    for (const [table, row] of edges) inserts.get(table).run(...row);
  };
}

function once(kind) {
  const dir = mkdtempSync(join(process.env.FLOOR_DIR ?? tmpdir(), 'import-floor-'));
  const db = new Database(join(dir, 'floor.sqlite'));
  configure(db);
  const parts = kind === 'all' ? ['rows', 'fts', 'words'] : [kind];
  const writes = parts.map((part) => setUp(db, part));
  const write = (owner) => {
    for (const w of writes) w(owner);
  };
  const started = process.cpuUsage();
  const wall = process.hrtime.bigint();
  for (let i = 0; i < conversations.length; i += GROUP)
    db.transaction(() => {
      for (const owner of conversations.slice(i, i + GROUP)) write(owner);
    })();
  for (const r of schema) if (deferred.includes(r.name)) db.exec(r.sql);
  const written = process.cpuUsage(started);
  db.close();
  const total = process.cpuUsage(started);
  const seconds = Number(process.hrtime.bigint() - wall) / 1e9;
  rmSync(dir, { recursive: true, force: true });
  const cpu = (u) => (u.user + u.system) / 1e6;
  return { writes: cpu(written), withClose: cpu(total), seconds, system: total.system / 1e6 };
}

const kinds = only ? [only] : ['fts', 'rows', 'words', 'all'];
const load = () => (loadavg()[0] ?? 0).toFixed(1);
console.log(`${messages} messages, ${conversations.length} conversations; load average ${load()}`);
for (let run = 1; run <= runs; run++)
  for (const kind of kinds) {
    const r = once(kind);
    console.log(
      `${kind.padEnd(5)} run ${run}: ${r.writes.toFixed(2)} CPU-s writing, ${r.withClose.toFixed(2)} with the close (system ${r.system.toFixed(2)}); ${r.seconds.toFixed(2)} s wall; ${Math.round(messages / r.withClose)} messages per CPU-s; load ${load()}`,
    );
  }
