import type Database from 'better-sqlite3-multiple-ciphers';
import { z } from 'zod';
import { CONVERSATION_STEMS, CONVERSATION_WORDS, GRAIN_NUMBER } from './conversation-words.js';
import { MESSAGE_CONVERSATIONS } from './message-conversations.js';
import { conversationsByDays } from './segment-days.js';
import { sqliteRow } from './sqlite-rows.js';
import {
  MATCH_COUNT_CAP,
  SOURCES,
  counter,
  matchingRowids,
  numberJoin,
  numberedFilters,
  numberedMatches,
  ownerJoin,
  readsMessage,
  tableExists,
  type Params,
  type Source,
  type Tables,
} from './sqlite-matches.js';

/**
 * The counts of a filtered search: the matches each source keeps and the conversations they
 * are in (moved out of sqlite-matches.ts with the seventh pass of issue 46).
 */

/**
 * With filters: the matches each source keeps and the conversations they are in, exactly, in
 * one pass over the matches joined to their message and conversation. They were two passes
 * (the matches kept, capped, then the conversations), and the first was about a quarter of a
 * search's time over bench/graph.mjs's queries (profiled at 300,000 messages, docs/performance.md).
 */
export function countFiltered(
  db: Database.Database,
  sources: readonly Source[],
  tables: Tables,
  filters: string[],
  params: Params,
): { kept: Record<Source, number>; conversations: number; messages?: number } {
  const grained = grainFiltered(db, sources, tables, filters, params);
  if (grained !== undefined) return grained;
  const alone = messageTextAlone(db, sources, tables, filters, params);
  if (alone !== undefined) return alone;
  const numbered = numberedMatches(db, sources, tables, filters, params, true);
  if (numbered !== undefined) {
    // The matches of message text, kept or not, read in the same pass: a phrase of two common
    // words takes 50-70 ms a reading at a million messages, and countMatches read it again.
    const counts = sqliteRow(
      FilteredCounts.extend({ messages: z.number() }),
      counter(
        db,
        params,
        true,
      )(
        `SELECT count(*) FILTER (WHERE source = 'message' AND ok) AS message,
          count(*) FILTER (WHERE source = 'attachment' AND ok) AS attachment,
          count(DISTINCT n) FILTER (WHERE ok) AS conversations,
          count(*) FILTER (WHERE source = 'message') AS messages FROM (${numbered})`,
      ),
      'match counts',
    );
    return {
      kept: { message: counts?.message ?? 0, attachment: counts?.attachment ?? 0 },
      conversations: counts?.conversations ?? 0,
      messages: Math.min(counts?.messages ?? 0, MATCH_COUNT_CAP + 1),
    };
  }
  const hits = sources
    .map((source) => {
      const { porter, stems } = matchingRowids(source, tables);
      const rows = stems === undefined ? porter : `${porter} UNION ${stems}`;
      const join = ownerJoin(db, source) ?? SOURCES[source].join;
      return `SELECT '${source}' AS source, m.owner AS n FROM (${rows}) t ${join}
      JOIN "Conversation" c ON c.id = m.owner WHERE ${filters.join(' AND ')}`;
    })
    .join(' UNION ALL ');
  const counts = sqliteRow(
    FilteredCounts,
    counter(
      db,
      params,
      true,
    )(
      `SELECT count(*) FILTER (WHERE source = 'message') AS message,
        count(*) FILTER (WHERE source = 'attachment') AS attachment,
        count(DISTINCT n) AS conversations FROM (${hits})`,
    ),
    'match counts',
  );
  return {
    kept: { message: counts?.message ?? 0, attachment: counts?.attachment ?? 0 },
    conversations: counts?.conversations ?? 0,
  };
}

/**
 * Whether the stemmed table or attachment text holds a match: when neither does, a search's
 * counts read message_fts's matches alone (see {@link messageTextAlone}).
 */
export function othersMatch(
  db: Database.Database,
  sources: readonly Source[],
  tables: Tables,
  params: Params,
): boolean {
  const count = counter(db, params);
  const others = [
    matchingRowids('message', tables).stems,
    ...sources
      .filter((source) => source !== 'message')
      .map((s) => matchingRowids(s, tables).porter),
  ];
  return others.some((rows) => rows !== undefined && count(`SELECT EXISTS (${rows})`) !== 0);
}

/**
 * {@link countFiltered} when message_fts alone matches (the stemmed table and attachment text
 * match nothing, as in a store of English conversations without attached text): the same
 * counts, aggregated over message_fts's matches joined to their numbers directly rather than
 * over a UNION ALL of the three tables' matches listed with whether the filters keep them
 * (issue 46, seventh pass: `the` since a date at a million messages, 178 → about 120 ms of
 * CPU; every match passed through the list). Undefined when another table matches.
 */
function messageTextAlone(
  db: Database.Database,
  sources: readonly Source[],
  tables: Tables,
  filters: readonly string[],
  params: Params,
): { kept: Record<Source, number>; conversations: number; messages: number } | undefined {
  const conditions = numberedFilters(db, filters, params, tables.kept);
  if (conditions === undefined || !tableExists(db, MESSAGE_CONVERSATIONS)) return undefined;
  if (othersMatch(db, sources, tables, params)) return undefined;
  const condition = conditions.length > 0 ? conditions.join(' AND ') : '1';
  const counts = sqliteRow(
    z.object({ message: z.number(), conversations: z.number(), messages: z.number() }),
    counter(
      db,
      params,
      true,
    )(
      `SELECT count(*) FILTER (WHERE ${condition}) AS message,
        count(DISTINCT k.n) FILTER (WHERE ${condition}) AS conversations,
        count(*) AS messages
       FROM (${matchingRowids('message', tables).porter}) t
       LEFT JOIN ${MESSAGE_CONVERSATIONS} k ON k.rowid = t.rowid`,
    ),
    'match counts',
  );
  return {
    kept: { message: counts?.message ?? 0, attachment: 0 },
    conversations: counts?.conversations ?? 0,
    messages: Math.min(counts?.messages ?? 0, MATCH_COUNT_CAP + 1),
  };
}

/**
 * {@link countFiltered} when the filters read the conversation (its source) and the message's
 * date alone, and the search is one each conversation's words answer (see {@link Tables.grain}):
 * the conversations whose words match and which the filters keep, exactly (with a date bound,
 * from each segment's days: see segment-days.ts); the matches kept counted up to the cap, as
 * {@link countMatches} counts them (the number shown stops there).
 */
function grainFiltered(
  db: Database.Database,
  sources: readonly Source[],
  tables: Tables,
  filters: readonly string[],
  params: Params,
): { kept: Record<Source, number>; conversations: number; messages?: number } | undefined {
  if (!tables.grain) return undefined;
  const conditions = numberedFilters(db, filters, params, tables.kept);
  if (conditions === undefined || conditions.length === 0) return undefined;
  const joins = sources.map((source) => numberJoin(db, source));
  if (joins.some((join) => join === undefined)) return undefined;
  const where = conditions.join(' AND ');
  // With a date bound, the conversations from each segment's days (see segment-days.ts).
  let byDays: number | undefined;
  if (filters.some(readsMessage)) {
    const scope = numberedFilters(db, filters.filter(overConversation), params, tables.kept) ?? [];
    const conversation = scope.length > 0 ? scope.join(' AND ') : undefined;
    byDays = conversationsByDays(db, sources, tables, filters, params, conditions, conversation);
    if (byDays === undefined) return undefined;
  }
  const cap = MATCH_COUNT_CAP + 1;
  const count = counter(db, params);
  const kept: Record<Source, number> = { message: 0, attachment: 0 };
  sources.forEach((source, i) => {
    const join = joins[i] ?? '';
    const { porter, stems } = matchingRowids(source, tables);
    const keptOf = (rows: string): number =>
      count(`SELECT count(*) FROM (SELECT 1 FROM (${rows}) t ${join} WHERE ${where} LIMIT ${cap})`);
    const english = keptOf(porter);
    kept[source] =
      stems === undefined || english >= cap
        ? english
        : Math.min(cap, english + keptOf(`${stems} AND rowid NOT IN (${porter})`));
  });
  // Materialized: else SQLite hands the filter's numbers to FTS5 as `rowid IN (…)`, one FTS5
  // query a number (40 s for a prefix with a source at a million messages).
  const conversations =
    byDays ??
    count(
      `WITH g AS MATERIALIZED (SELECT ${GRAIN_NUMBER} AS n FROM ${CONVERSATION_WORDS} WHERE ${CONVERSATION_WORDS} MATCH @match
     UNION SELECT ${GRAIN_NUMBER} AS n FROM ${CONVERSATION_STEMS} WHERE ${CONVERSATION_STEMS} MATCH @stems)
     SELECT count(*) FROM g k WHERE ${where}`,
    );
  // Past the cap kept, past it found (what countMatches would say, without its reading).
  return kept.message >= cap ? { kept, conversations, messages: cap } : { kept, conversations };
}

const overConversation = (filter: string): boolean => !readsMessage(filter);

const FilteredCounts = z.object({
  message: z.number(),
  attachment: z.number(),
  conversations: z.number(),
});
