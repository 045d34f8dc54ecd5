import { z } from 'zod';
import type { ConversationFilter } from './store.js';
import { QueryError } from './store.js';
import type { Conditions, Dialect } from './query-conditions.js';

/** What a listing sorts by: one key (an indexed expression over `c`), then the id. */
export interface SortKey {
  expression: string;
  descending: boolean;
}

/** The key a sort orders by (the SQLite store has an index on each, with the id). */
export function sortKeyOf(sort: ConversationFilter['sort'], dialect: Dialect): SortKey {
  switch (sort) {
    case 'oldest':
      return { expression: 'c.created_at', descending: false };
    case 'most-messages':
      return { expression: 'c.message_count', descending: true };
    case 'updated':
      return { expression: 'coalesce(c.updated_at, c.created_at)', descending: true };
    case 'title':
      return { expression: dialect.lower('c.name'), descending: false };
    default:
      return { expression: 'c.created_at', descending: true };
  }
}

// A cursor is the last row's key and id: it stays good when rows before it are deleted.
const Cursor = z.tuple([z.union([z.string(), z.number()]), z.string()]);

/** The cursor of the page after the row with this key and id. */
export function cursorOf(key: string | number, id: string): string {
  return Buffer.from(JSON.stringify([key, id])).toString('base64url');
}

/**
 * The condition that a row comes after the cursor in the sort's order. It bounds the key on its
 * own as well, so the store seeks in the sort's index instead of reading it from the start.
 */
export function afterCursor(cursor: string, key: SortKey, dialect: Dialect): Conditions {
  let parsed: z.infer<typeof Cursor>;
  try {
    parsed = Cursor.parse(JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')));
  } catch {
    throw new QueryError('after must be the nextCursor of an earlier page');
  }
  const [value, id] = parsed;
  const k = key.expression;
  const p = dialect.param;
  const [bound, strict] = key.descending ? ['<=', '<'] : ['>=', '>'];
  return {
    where: [
      `${k} ${bound} ${p('afterKey')}`,
      `(${k} ${strict} ${p('afterKey')} OR c.id > ${p('afterId')})`,
    ],
    params: { afterKey: value, afterId: id },
  };
}
