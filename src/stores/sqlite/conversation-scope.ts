import type Database from 'better-sqlite3-multiple-ciphers';
import { CONVERSATION_NUMBERS } from './message-conversations.js';
import { engineError, readsMessage, tableExists, type Params } from './sqlite-matches.js';

/**
 * The filters of a search with those over the conversation (its source) that keep every
 * conversation of the store left out, and for those that keep some, the condition over a
 * match's number (`k.n`) that a search checks (issue 46, sixth pass). Measured at a million
 * messages (28,561 conversations, all of one source): the numbers a source keeps, looked up
 * conversation by conversation (an owner id a seek), took 30–65 ms each time a statement
 * built them (twice a search, the ranking and the count), where counting the conversations
 * by source through its index takes about 1 ms. So the conversations are counted first: a
 * filter keeping all of them is no filter (the search is the unfiltered one, its counts read
 * from each conversation's words); one keeping none keeps no match; otherwise the smaller
 * side is listed: the numbers kept, or those left out (`NOT IN`). Exact: every match's
 * conversation is a "Conversation" row (its messages are written and deleted with it).
 */
export function scopeFilters(
  db: Database.Database,
  filters: readonly string[],
  params: Params,
): { filters: string[]; kept: string | undefined } {
  const conversation = filters.filter((filter) => !readsMessage(filter));
  if (conversation.length === 0 || !tableExists(db, CONVERSATION_NUMBERS))
    return { filters: [...filters], kept: undefined };
  const condition = conversation.join(' AND ');
  const count = (sql: string): number => {
    try {
      return Number(db.prepare(sql).pluck().get(params));
    } catch (error) {
      throw engineError(error);
    }
  };
  const all = count(`SELECT count(*) FROM "Conversation"`);
  const kept = count(`SELECT count(*) FROM "Conversation" c WHERE ${condition}`);
  if (kept === all) return { filters: filters.filter(readsMessage), kept: undefined };
  if (kept === 0) return { filters: [...filters], kept: '0' };
  const numbers = (where: string): string =>
    `(SELECT kn.n FROM "Conversation" c JOIN ${CONVERSATION_NUMBERS} kn ON kn.owner = c.id WHERE ${where})`;
  return {
    filters: [...filters],
    kept:
      kept <= all - kept
        ? `k.n IN ${numbers(condition)}`
        : `k.n NOT IN ${numbers(`(${condition}) IS NOT 1`)}`,
  };
}
