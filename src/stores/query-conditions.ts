import { dateBound } from './date-bound.js';
import type { ConversationFilter, SearchQuery } from './store.js';

/**
 * What differs between the stores' query languages in a filter: how a parameter is named, how
 * true is written, and how a title is matched (case-insensitively, as words typed).
 */
export interface Dialect {
  param: (name: string) => string;
  true: string;
  /** The condition that `c.name` contains the `title` parameter, and that parameter's value. */
  titleContains: { condition: string; value(title: string): string };
  /** The condition that a project holding `c` has the `project` parameter in its name or path. */
  projectContains: string;
  /** `expression` in lower case, for sorting by title. */
  lower: (expression: string) => string;
}

/** Conditions to AND together, and the parameters they name. */
export interface Conditions {
  where: string[];
  params: Record<string, unknown>;
}

/** A search's filters over `c` (the Conversation) and `m` (the Message). */
export function searchConditions(query: SearchQuery, dialect: Dialect): Conditions {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  const p = dialect.param;
  if (query.source !== undefined) {
    where.push(`c.source = ${p('source')}`);
    params.source = query.source;
  }
  if (query.role !== undefined) {
    where.push(`m.role = ${p('role')}`);
    params.role = query.role;
  }
  if (query.since !== undefined) {
    where.push(`m.created_at >= ${p('since')}`);
    params.since = dateBound(query.since, 'since');
  }
  if (query.until !== undefined) {
    where.push(`m.created_at < ${p('until')}`);
    params.until = dateBound(query.until, 'until');
  }
  return { where, params };
}

/** A conversation listing's filters over `c` (the Conversation). */
export function conversationConditions(filter: ConversationFilter, dialect: Dialect): Conditions {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  const p = dialect.param;
  if (filter.source !== undefined) {
    where.push(`c.source = ${p('source')}`);
    params.source = filter.source;
  }
  if (filter.since !== undefined) {
    where.push(`c.created_at >= ${p('since')}`);
    params.since = dateBound(filter.since, 'since');
  }
  if (filter.until !== undefined) {
    where.push(`c.created_at < ${p('until')}`);
    params.until = dateBound(filter.until, 'until');
  }
  if (filter.hasToolCalls) where.push(`c.has_tool_calls = ${dialect.true}`);
  if (filter.hasBranches) where.push(`c.has_branches = ${dialect.true}`);
  if (filter.title !== undefined && filter.title.trim() !== '') {
    where.push(dialect.titleContains.condition);
    params.title = dialect.titleContains.value(filter.title.trim());
  }
  if (filter.project !== undefined && filter.project.trim() !== '') {
    where.push(dialect.projectContains);
    params.project = dialect.titleContains.value(filter.project.trim());
  }
  if (filter.minMessages !== undefined) {
    where.push(`c.message_count >= ${p('minMessages')}`);
    params.minMessages = filter.minMessages;
  }
  return { where, params };
}

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

/** The ORDER BY of a conversation listing over `c`: the sort's key, then the id. */
export function conversationOrder(sort: ConversationFilter['sort'], dialect: Dialect): string {
  const key = sortKeyOf(sort, dialect);
  return `${key.expression} ${key.descending ? 'DESC' : 'ASC'}, c.id`;
}
