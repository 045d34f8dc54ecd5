import type Database from 'better-sqlite3-multiple-ciphers';
import { z } from 'zod';
import {
  CONVERSATION_STEMS,
  CONVERSATION_WORDS,
  GRAIN_NUMBER,
  SEGMENT_BITS,
} from './conversation-words.js';
import { sqliteRow } from './sqlite-rows.js';
import {
  SOURCES,
  counter,
  matchingRowids,
  numberedMatches,
  ownerJoin,
  tableExists,
  type Params,
  type Source,
  type Tables,
} from './sqlite-matches.js';
import type { Exclusion } from './fts-query.js';
import { othersMatch } from './filtered-count.js';
import { countExcludingBySegments, countTogetherBySegments } from './exclusion-count.js';
import { MESSAGE_CONVERSATIONS } from './message-conversations.js';

/** A grain document's segment index, the low bits of its rowid (see conversation-words.ts). */
const SEGMENT_MASK = (1 << SEGMENT_BITS) - 1;

/**
 * The conversations holding a match, exactly (every match, the filters applied): without
 * filters, for a word, a prefix or an OR of them, the conversations whose words match (one
 * document a segment of a conversation, counted by its number, see conversation-words.ts);
 * otherwise each matching
 * row's conversation, counted once across message and attachment text. A match's conversation
 * is read as its number from {@link MESSAGE_CONVERSATIONS}; where filters read the message (its
 * role and time), from {@link MESSAGE_OWNER_INDEX}, not from its row, which holds its text
 * (measured at a million messages: 392 ms for a word in 70,000 messages through the rows, see
 * docs/performance.md). When it read every match of message text (and nothing else matched),
 * how many they are is left in `read.messages`.
 */
export function countConversations(
  db: Database.Database,
  sources: readonly Source[],
  tables: Tables,
  filters: string[],
  params: Params,
  read: { messages?: number } = {},
): number {
  if (filters.length === 0 && tables.grain) return grainConversations(db, params, 'match', 'stems');
  const excluding =
    filters.length === 0 && tables.exclusion !== undefined
      ? countExcluding(db, sources, tables, tables.exclusion, params, read)
      : undefined;
  if (excluding !== undefined) return excluding;
  // Message text alone matches (no stems, no attachment text): its matches' numbers counted
  // directly, not through a UNION ALL list (issue 46, seventh pass: `because -borrow`, 101 → 92
  // ms at a million messages).
  if (
    filters.length === 0 &&
    tableExists(db, MESSAGE_CONVERSATIONS) &&
    !othersMatch(db, sources, tables, params)
  )
    return tables.together !== undefined
      ? countTogetherBySegments(
          db,
          tables.together,
          matchingRowids('message', tables).porter,
          params,
          read,
        )
      : counter(
          db,
          params,
        )(
          `SELECT count(DISTINCT k.n) FROM (${matchingRowids('message', tables).porter}) t
       JOIN ${MESSAGE_CONVERSATIONS} k ON k.rowid = t.rowid`,
        );
  const numbered = numberedMatches(db, sources, tables, filters, params, false);
  if (numbered !== undefined)
    return counter(db, params)(`SELECT count(DISTINCT n) FROM (${numbered})`);
  const owners = sources.flatMap((source) => {
    const { porter, stems } = matchingRowids(source, tables);
    const join = ownerJoin(db, source) ?? SOURCES[source].join;
    const where =
      filters.length > 0
        ? ` JOIN "Conversation" c ON c.id = m.owner WHERE ${filters.join(' AND ')}`
        : '';
    return [porter, ...(stems !== undefined ? [stems] : [])].map(
      (rows) => `SELECT m.owner AS owner FROM (${rows}) t ${join}${where}`,
    );
  });
  return counter(db, params)(`SELECT count(DISTINCT owner) FROM (${owners.join(' UNION ALL ')})`);
}

/**
 * The conversations holding a match of `a -b` (issue 46, seventh pass: half the bench's OR / NOT
 * queries, each match of `a` read with its number, 40–170 ms at a million messages), from each
 * conversation's words when no document of them (a conversation's words, or a segment of them,
 * see conversation-words.ts) holds both `a` and an exclusion, nor of its stems: then every text
 * holding `a` holds no exclusion (its document would hold both), so the conversations holding
 * a match are exactly those whose words hold `a` (or whose stems hold its stems), counted as a
 * word's are. When one does and message text alone matches, from the documents and the
 * matches in the rowid ranges of the segments holding both (see countExcludingBySegments,
 * issue 46, tenth pass). Undefined otherwise: counted match by match.
 */
function countExcluding(
  db: Database.Database,
  sources: readonly Source[],
  tables: Tables,
  exclusion: Exclusion,
  params: Params,
  read: { messages?: number },
): number | undefined {
  const held = (table: string, match: string): boolean =>
    counter(db, { match }, true)(`SELECT 1 FROM ${table} WHERE ${table} MATCH @match LIMIT 1`) !==
    undefined;
  if (
    !held(CONVERSATION_WORDS, `(${exclusion.include}) AND (${exclusion.exclude})`) &&
    !held(CONVERSATION_STEMS, `(${exclusion.includeStems}) AND (${exclusion.excludeStems})`)
  )
    return grainConversations(
      db,
      { ...params, grainIn: exclusion.include, grainInStems: exclusion.includeStems },
      'grainIn',
      'grainInStems',
    );
  return othersMatch(db, sources, tables, params)
    ? undefined
    : countExcludingBySegments(db, exclusion, params, read);
}

const GrainDocuments = z.object({ documents: z.number(), later: z.number().nullable() });

/**
 * The conversations whose words match `@words` or whose stems match `@stems`: the distinct
 * numbers of the documents that match. When no stems match and every matching document is its
 * conversation's first segment (`k = 0`, the rowid's low bits), each is another conversation,
 * so they are counted as FTS5 reads them: the distinct count (a UNION, or `count(DISTINCT)`,
 * each number put in a temporary B-tree) took 7 ms for `the*`'s 28,561 documents at a million
 * messages, the plain count about 1.5 (issue 46, ninth pass). A conversation written in several
 * segments (a live append) counts as before.
 */
function grainConversations(
  db: Database.Database,
  params: Params,
  words: string,
  stems: string,
): number {
  const count = counter(db, params, true);
  const stemmed = count(
    `SELECT 1 FROM ${CONVERSATION_STEMS} WHERE ${CONVERSATION_STEMS} MATCH @${stems} LIMIT 1`,
  );
  if (stemmed === undefined) {
    const found = sqliteRow(
      GrainDocuments,
      count(
        `SELECT count(*) AS documents, sum(rowid & ${SEGMENT_MASK} != 0) AS later
         FROM ${CONVERSATION_WORDS} WHERE ${CONVERSATION_WORDS} MATCH @${words}`,
      ),
      'conversation documents',
    );
    if (found !== undefined && (found.later ?? 0) === 0) return found.documents;
  }
  return counter(
    db,
    params,
  )(
    `SELECT count(*) FROM (SELECT ${GRAIN_NUMBER} FROM ${CONVERSATION_WORDS} WHERE ${CONVERSATION_WORDS} MATCH @${words}
     UNION SELECT ${GRAIN_NUMBER} FROM ${CONVERSATION_STEMS} WHERE ${CONVERSATION_STEMS} MATCH @${stems})`,
  );
}
