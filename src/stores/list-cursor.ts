import { z } from 'zod';
import type { ConversationFilter } from './store.js';
import { QueryError } from './store.js';
import {
  conversationConditions,
  conversationOrder,
  sortKeyOf,
  type Conditions,
  type Dialect,
  type SortKey,
} from './query-conditions.js';

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

/**
 * A listing's page: the filter's conditions (for the total) and, for the rows, those and the
 * cursor's, the ORDER BY, and the sort key's expression (selected to make the next cursor).
 */
export function conversationListing(
  filter: ConversationFilter,
  dialect: Dialect,
): { total: Conditions; rows: Conditions; order: string; key: string } {
  const total = conversationConditions(filter, dialect);
  const key = sortKeyOf(filter.sort, dialect);
  const after =
    filter.after !== undefined && filter.after !== ''
      ? afterCursor(filter.after, key, dialect)
      : { where: [], params: {} };
  return {
    total,
    rows: {
      where: [...total.where, ...after.where],
      params: { ...total.params, ...after.params },
    },
    order: conversationOrder(filter.sort, dialect),
    key: key.expression,
  };
}
