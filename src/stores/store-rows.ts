import { z } from 'zod';
import type { ConversationInfo, ConversationListItem, MessageRef, Stats } from './store.js';

// The rows a store reads for its own answers, parsed rather than cast (issue 27): a database
// another tool also writes, or an older chatgraph wrote, may hold what the types do not say,
// and a wrong row is better an error naming it than a wrong value deep in a shell.

export const text = z.string();
export const nullableText = z.string().nullable();
export const count = z.number();

/** A conversation as `info` and the listings read it. */
export const ConversationRow = z.object({
  id: text,
  platformId: text,
  title: nullableText,
  name: text,
  source: text,
  createdAt: text,
  updatedAt: nullableText,
  messageCount: count,
}) satisfies z.ZodType<ConversationInfo>;

/** A listed conversation: its preview and model, and the key the listing sorts by. */
export const ListRow = ConversationRow.extend({
  preview: text,
  model: nullableText,
  sortKey: z.union([text, count]),
}) satisfies z.ZodType<ConversationListItem & { sortKey: string | number }>;

/** A message found by (a prefix of) its id. */
export const MessageRefRow = z.object({
  id: text,
  conversationId: text,
}) satisfies z.ZodType<MessageRef>;

type StatsParts = Pick<Stats, 'bySource' | 'byMonth' | 'byRole' | 'byModel'>;

/** The rows of each part of {@link Stats}, one schema per row. */
export const STATS_ROWS = {
  bySource: z.object({ source: text, conversations: count, messages: count }),
  byMonth: z.object({ month: text, source: text, messages: count, conversations: count }),
  byRole: z.object({ role: text, messages: count }),
  byModel: z.object({ model: text, messages: count }),
} satisfies { [K in keyof StatsParts]: z.ZodType<StatsParts[K][number]> };

/** Which database gave a row, for the error when one does not fit. */
export type RowSource = 'Neo4j' | 'The SQLite index';

/**
 * Parses rows with `schema`; a row that does not fit is an error naming the database, what
 * was read and the row.
 */
export function parseRows<T>(
  schema: z.ZodType<T, z.ZodTypeDef, unknown>,
  rows: readonly unknown[],
  what: string,
  from: RowSource,
): T[] {
  return rows.map((row, i) => parseRow(schema, row, what, from, i));
}

/** One row (or nothing) parsed with `schema`, as {@link parseRows} does. */
export function parseRow<T>(
  schema: z.ZodType<T, z.ZodTypeDef, unknown>,
  row: unknown,
  what: string,
  from: RowSource,
  index = 0,
): T {
  const parsed = schema.safeParse(row);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue ? `${issue.path.join('.') || 'row'}: ${issue.message}` : 'unreadable';
  throw unreadableRow(from, what, index, where);
}

/**
 * The error for a row that does not fit: also raised by the hot paths that narrow their rows by
 * hand instead of with zod (the vector rows), so every such error reads alike. `where` names the
 * field and what was wrong with it.
 */
export function unreadableRow(from: RowSource, what: string, index: number, where: string): Error {
  return new Error(
    `${from} gave a ${what} row that chatgraph cannot read (row ${String(index)}, ${where}); was it written by another tool?`,
  );
}
