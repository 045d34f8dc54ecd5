import Database from 'better-sqlite3-multiple-ciphers';
import {
  CONVERSATION_SEGMENTS,
  CONVERSATION_STEMS,
  CONVERSATION_WORDS,
  GRAIN_NUMBER,
} from '../../src/stores/sqlite/conversation-words.js';
import { PAIR_STEMS, PAIRS_TABLE } from '../../src/stores/sqlite/word-pairs.js';

type Day = number | null;

/**
 * The words whose conversations, counted from each conversation's words (conversation-words.ts),
 * are not those of their matches (every indexed word of the store's texts and stems, each
 * match's conversation through its number): empty when the table is right.
 */
export function grainMismatches(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    const wrong: string[] = [];
    const count = (sql: string, term: string): number =>
      Number(
        db
          .prepare(sql)
          .pluck()
          .get({ t: `"${term.replace(/"/g, '""')}"` }),
      );
    const terms = (table: string): string[] => {
      db.exec(
        `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${table}_v USING fts5vocab(main, ${table}, 'row')`,
      );
      return db
        .prepare(`SELECT term FROM temp.${table}_v LIMIT 500`)
        .pluck()
        .all()
        .filter((t): t is string => typeof t === 'string');
    };
    const words = new Set([...terms('message_fts'), ...terms('attachment_fts')]);
    for (const term of words) {
      const grain = count(
        `SELECT count(DISTINCT ${GRAIN_NUMBER}) FROM ${CONVERSATION_WORDS} WHERE ${CONVERSATION_WORDS} MATCH @t`,
        term,
      );
      const matches = count(
        `SELECT count(DISTINCT n) FROM (
           SELECT k.n FROM message_fts t JOIN message_conversation k ON k.rowid = t.rowid WHERE message_fts MATCH @t
           UNION ALL
           SELECT k.n FROM attachment_fts t JOIN "Attachment" a ON a.rowid = t.rowid
             JOIN "HAS_ATTACHMENT" e ON e.dst = a.id JOIN "Message" m ON m.id = e.src
             JOIN message_conversation k ON k.rowid = m.rowid WHERE attachment_fts MATCH @t)`,
        term,
      );
      if (grain !== matches) wrong.push(`${term}: ${grain} conversations, ${matches} by match`);
    }
    for (const term of terms('message_stems')) {
      const grain = count(
        `SELECT count(DISTINCT ${GRAIN_NUMBER}) FROM ${CONVERSATION_STEMS} WHERE ${CONVERSATION_STEMS} MATCH @t`,
        term,
      );
      const matches = count(
        `SELECT count(DISTINCT k.n) FROM message_stems t JOIN message_conversation k ON k.rowid = t.rowid WHERE message_stems MATCH @t`,
        term,
      );
      if (grain !== matches)
        wrong.push(`stem ${term}: ${grain} conversations, ${matches} by match`);
    }
    wrong.push(...pairMismatches(db));
    // Each segment's first and last day are its messages' (issue 46, eighth pass): null
    // unless every message of it has a day.
    const days = db
      .prepare(
        `SELECT s.n, s.k, s.first_day AS kept0, s.last_day AS kept1,
           (SELECT CASE WHEN count(*) > 0 AND count(day) = count(*) THEN min(day) END
            FROM message_conversation WHERE rowid BETWEEN s.lo AND s.hi AND n = s.n) AS day0,
           (SELECT CASE WHEN count(*) > 0 AND count(day) = count(*) THEN max(day) END
            FROM message_conversation WHERE rowid BETWEEN s.lo AND s.hi AND n = s.n) AS day1
         FROM ${CONVERSATION_SEGMENTS} s`,
      )
      .all() as {
      n: number;
      k: number;
      kept0: Day;
      kept1: Day;
      day0: Day;
      day1: Day;
    }[];
    for (const { n, k, kept0, kept1, day0, day1 } of days)
      if (kept0 !== day0 || kept1 !== day1)
        wrong.push(
          `segment ${n}.${k}: days ${String(kept0)}–${String(kept1)}, its messages' ${String(day0)}–${String(day1)}`,
        );
    return wrong;
  } finally {
    db.close();
  }
}

/**
 * The pairs of very common words (word-pairs.ts) whose rows in message_pairs are not the
 * messages message_fts holds them in, read from message_fts's own positions (fts5vocab): each
 * adjacent pair with a word of the list, and `pair_c` for a message holding it c times or more.
 */
function pairMismatches(db: Database.Database): string[] {
  if (db.prepare(`SELECT 1 FROM sqlite_master WHERE name = ?`).get(PAIRS_TABLE) === undefined)
    return [];
  db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS temp.message_fts_at USING fts5vocab(main, message_fts, 'instance')`,
  );
  const tokens = new Map<number, string[]>();
  for (const row of db.prepare(`SELECT doc, offset, term FROM temp.message_fts_at`).all() as {
    doc: number;
    offset: number;
    term: string;
  }[]) {
    const list = tokens.get(row.doc) ?? [];
    list[row.offset] = row.term;
    tokens.set(row.doc, list);
  }
  const expected = new Map<string, Set<number>>();
  for (const [doc, list] of tokens) {
    const counts = new Map<string, number>();
    for (let i = 0; i + 1 < list.length; i++) {
      const [a, b] = [list[i], list[i + 1]];
      if (a === undefined || b === undefined || a.length > 64 || b.length > 64) continue;
      if (PAIR_STEMS.has(a) || PAIR_STEMS.has(b))
        counts.set(`${a}_${b}`, (counts.get(`${a}_${b}`) ?? 0) + 1);
    }
    for (const [pair, count] of counts)
      for (let c = 1; c <= count; c++) {
        const term = c === 1 ? pair : `${pair}_${c}`;
        expected.set(term, (expected.get(term) ?? new Set()).add(doc));
      }
  }
  db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS temp.pairs_v USING fts5vocab(main, ${PAIRS_TABLE}, 'row')`,
  );
  const held = db.prepare(`SELECT term FROM temp.pairs_v`).pluck().all() as string[];
  const rows = db.prepare(`SELECT rowid FROM ${PAIRS_TABLE} WHERE ${PAIRS_TABLE} MATCH ?`).pluck();
  const wrong: string[] = [];
  for (const term of new Set([...held, ...expected.keys()])) {
    const got = (rows.all(`"${term}"`) as number[]).toSorted((a, b) => a - b).join(',');
    const want = [...(expected.get(term) ?? [])].toSorted((a, b) => a - b).join(',');
    if (got !== want) wrong.push(`pair ${term}: rows ${got}, message_fts's ${want}`);
  }
  return wrong;
}
