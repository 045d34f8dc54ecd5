import type Database from 'better-sqlite3-multiple-ciphers';
import { CONVERSATION_STEMS, CONVERSATION_WORDS, GRAIN_NUMBER } from './conversation-words.js';
import {
  SOURCES,
  counter,
  matchingRowids,
  numberedMatches,
  ownerJoin,
  type Params,
  type Source,
  type Tables,
} from './sqlite-matches.js';

/**
 * The conversations holding a match, exactly (every match, the filters applied): without
 * filters, for a word, a prefix or an OR of them, the conversations whose words match (one
 * document a segment of a conversation, counted by its number, see conversation-words.ts);
 * otherwise each matching
 * row's conversation, counted once across message and attachment text. A match's conversation
 * is read as its number from {@link MESSAGE_CONVERSATIONS}; where filters read the message (its
 * role and time), from {@link MESSAGE_OWNER_INDEX}, not from its row, which holds its text
 * (measured at a million messages: 392 ms for a word in 70,000 messages through the rows, see
 * docs/performance.md).
 */
export function countConversations(
  db: Database.Database,
  sources: readonly Source[],
  tables: Tables,
  filters: string[],
  params: Params,
): number {
  if (filters.length === 0 && tables.grain)
    return counter(
      db,
      params,
    )(
      `SELECT count(*) FROM (SELECT ${GRAIN_NUMBER} FROM ${CONVERSATION_WORDS} WHERE ${CONVERSATION_WORDS} MATCH @match
       UNION SELECT ${GRAIN_NUMBER} FROM ${CONVERSATION_STEMS} WHERE ${CONVERSATION_STEMS} MATCH @stems)`,
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
