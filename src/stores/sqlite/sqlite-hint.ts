import type Database from 'better-sqlite3-multiple-ciphers';
import { z } from 'zod';
import {
  nearerSuggestion,
  languageSurfaceForm,
  nearestLanguageTerms,
  nearestTerms,
  rewriteSearch,
  surfaceForm,
} from '../../search/did-you-mean.js';
import { indexForm } from '../../search/porter-stem.js';
import { foldWord, queryStems } from '../../search/stemming.js';
import { STEMS_LANGUAGES } from '../batch-language.js';
import { toFtsQuery } from './fts-query.js';
import { SOURCES, tableExists, type Source } from './sqlite-matches.js';
import { NullableText, Text, sqliteRows } from './sqlite-rows.js';
import { STEMS_TABLE } from './stemmed-full-text.js';

// "Did you mean": the embedded store's suggestion when a search's words match nothing.

const VocabRow = z.object({ term: Text, count: z.number() });

/** Vocabulary words read when looking for a word that would match (a hint). */
const HINT_CANDIDATES = 5_000;

/**
 * The search with each word that is found nowhere replaced by the nearest indexed word (by edit
 * distance among the vocabulary words sharing its first two letters, the most frequent on a
 * tie), written as people wrote it: from the English (porter) vocabulary and from the stemmed
 * table's, so a misspelt French or German word gets a suggestion too.
 */
export function sqliteHint(
  db: Database.Database,
  text: string,
  words: string[],
  sources: Source[],
): string | undefined {
  const replacements = new Map<string, string>();
  const stems = tableExists(db, STEMS_TABLE);
  for (const word of words) {
    if (!/^[\p{L}\p{N}]+$/u.test(word) || word.length < 3) continue;
    const found = (source: Source): boolean => {
      const table = SOURCES[source].table;
      return (
        db.prepare(`SELECT 1 FROM ${table} WHERE ${table} MATCH ? LIMIT 1`).get(`"${word}"`) !==
        undefined
      );
    };
    if (sources.some(found) || (stems && foundStemmed(db, word))) continue;
    const english = suggest(db, word, sources);
    const other = stems ? suggestFromStems(db, word) : undefined;
    const suggestion = nearerSuggestion(word, english, other);
    if (suggestion !== undefined) replacements.set(word.toLowerCase(), suggestion);
  }
  if (replacements.size === 0) return undefined;
  const rewritten = rewriteSearch(text, replacements);
  return findsAnything(db, rewritten, sources, stems) ? rewritten : undefined;
}

/**
 * Whether a search would match anything, filters aside: a hint is offered only when it does, so
 * a question in a language the history does not hold is not "corrected" word by word into
 * another search that finds nothing ("ce matin" → "ce main").
 */
function findsAnything(
  db: Database.Database,
  text: string,
  sources: readonly Source[],
  stems: boolean,
): boolean {
  const fts = toFtsQuery(text);
  if (fts === undefined) return false;
  const exists = (table: string, match: string): boolean =>
    db.prepare(`SELECT 1 FROM ${table} WHERE ${table} MATCH ? LIMIT 1`).get(match) !== undefined;
  return (
    sources.some((source) => exists(SOURCES[source].table, fts.match)) ||
    (stems && exists(STEMS_TABLE, fts.stems))
  );
}

/** Whether the stemmed table holds the word in one of its languages. */
function foundStemmed(db: Database.Database, word: string): boolean {
  const any = queryStems(word, STEMS_LANGUAGES)
    .map((stem) => `"${stem}"`)
    .join(' OR ');
  return (
    db.prepare(`SELECT 1 FROM ${STEMS_TABLE} WHERE ${STEMS_TABLE} MATCH ? LIMIT 1`).get(any) !==
    undefined
  );
}

/** The nearest word of the languages other than English, from the stemmed table's vocabulary. */
function suggestFromStems(db: Database.Database, word: string): string | undefined {
  const folded = foldWord(word);
  const from = folded.slice(0, 2);
  const to = from.slice(0, -1) + String.fromCodePoint((from.codePointAt(1) ?? 0) + 1);
  db.exec(
    `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${STEMS_TABLE}_vocab USING fts5vocab(main, ${STEMS_TABLE}, 'row')`,
  );
  const candidates = db
    .prepare(
      `SELECT term, doc AS count FROM temp.${STEMS_TABLE}_vocab WHERE term >= ? AND term < ? LIMIT ${HINT_CANDIDATES}`,
    )
    .all(from, to);
  const texts = db
    .prepare(
      `SELECT m.content FROM ${STEMS_TABLE} s JOIN "Message" m ON m.rowid = s.rowid WHERE ${STEMS_TABLE} MATCH ? LIMIT 3`,
    )
    .pluck();
  for (const term of nearestLanguageTerms(
    word,
    sqliteRows(VocabRow, candidates, 'vocabulary'),
    STEMS_LANGUAGES,
  ).slice(0, 3)) {
    const found = sqliteRows(NullableText, texts.all(`"${term}"`), 'message text').filter(
      (t): t is string => t !== null,
    );
    const surface = languageSurfaceForm(word, found, term, STEMS_LANGUAGES);
    if (surface !== undefined) return surface;
  }
  return undefined;
}

function suggest(db: Database.Database, word: string, sources: Source[]): string | undefined {
  const stem = indexForm(word);
  const from = stem.slice(0, 2);
  const to = from.slice(0, -1) + String.fromCodePoint((from.codePointAt(1) ?? 0) + 1);
  const candidates = new Map<string, number>();
  for (const source of sources) {
    const table = SOURCES[source].table;
    // A temporary vocabulary table works on a store opened read-only too.
    db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS temp.${table}_vocab USING fts5vocab(main, ${table}, 'row')`,
    );
    const rows = db
      .prepare(
        `SELECT term, doc FROM temp.${table}_vocab WHERE term >= ? AND term < ? LIMIT ${HINT_CANDIDATES}`,
      )
      .all(from, to);
    for (const row of sqliteRows(z.object({ term: Text, doc: z.number() }), rows, 'vocabulary'))
      candidates.set(row.term, (candidates.get(row.term) ?? 0) + row.doc);
  }
  const terms = nearestTerms(
    word,
    [...candidates].map(([term, count]) => ({ term, count })),
  );
  for (const term of terms.slice(0, 3)) {
    for (const source of sources) {
      const { table } = SOURCES[source];
      const label = source === 'message' ? 'Message' : 'Attachment';
      const texts = db
        .prepare(
          `SELECT x.content FROM ${table} t JOIN "${label}" x ON x.rowid = t.rowid WHERE ${table} MATCH ? LIMIT 3`,
        )
        .pluck()
        .all(`"${term}"`);
      const surface = surfaceForm(
        word,
        sqliteRows(NullableText, texts, 'text').filter((t): t is string => t !== null),
        term,
      );
      if (surface !== undefined) return surface;
    }
  }
  return undefined;
}
