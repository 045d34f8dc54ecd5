import { z } from 'zod';
import type { ConversationInfo, ConversationListItem, Stats } from '../store.js';
import type { TreeRow } from '../thread-tree.js';

// The rows the Neo4j store reads for its own answers, parsed rather than cast: a database
// another tool also writes (or an older chatgraph wrote) may hold what the types do not say.

const text = z.string();
const nullableText = z.string().nullable();
const count = z.number();

const ConversationRow = z.object({
  id: text,
  platformId: text,
  title: nullableText,
  name: text,
  source: text,
  createdAt: text,
  updatedAt: nullableText,
  messageCount: count,
}) satisfies z.ZodType<ConversationInfo>;

const ListRow = ConversationRow.extend({
  preview: text,
  model: nullableText,
  sortKey: z.union([text, count]),
}) satisfies z.ZodType<ConversationListItem & { sortKey: string | number }>;

const MessageRow = z.object({
  id: text,
  role: text,
  content: text,
  createdAt: text,
  model: nullableText,
  parentId: nullableText,
  isThought: z.boolean(),
  hidden: z.boolean(),
  onShownThread: z.boolean(),
}) satisfies z.ZodType<Omit<TreeRow, 'attachments'>>;

/** The rows of each part of {@link Stats}, one schema per row. */
export const STATS_ROWS = {
  bySource: z.object({ source: text, conversations: count, messages: count }),
  byMonth: z.object({ month: text, source: text, messages: count, conversations: count }),
  byRole: z.object({ role: text, messages: count }),
  byModel: z.object({ model: text, messages: count }),
} satisfies { [K in keyof StatsParts]: z.ZodType<StatsParts[K][number]> };

type StatsParts = Pick<Stats, 'bySource' | 'byMonth' | 'byRole' | 'byModel'>;

/** Parses rows with `schema`; a row that does not fit is an error naming what and where. */
export function parseRows<T>(schema: z.ZodType<T>, rows: readonly unknown[], what: string): T[] {
  return rows.map((row, i) => {
    const parsed = schema.safeParse(row);
    if (parsed.success) return parsed.data;
    const issue = parsed.error.issues[0];
    throw new Error(
      `Neo4j gave a ${what} row that chatgraph cannot read (row ${i}: ${issue ? `${issue.path.join('.')}: ${issue.message}` : 'unreadable'}); was the database written by another tool?`,
    );
  });
}

/** Conversation rows of `CONVERSATION_COLUMNS`. */
export function conversationRows(rows: readonly unknown[]): ConversationInfo[] {
  return parseRows(ConversationRow, rows, 'conversation');
}

/** A listing's rows: a conversation, its preview and model, and the key it sorts by. */
export function listRows(rows: readonly unknown[]): z.infer<typeof ListRow>[] {
  return parseRows(ListRow, rows, 'listed conversation');
}

/** Message rows of `MESSAGE_COLUMNS`. */
export function messageRows(rows: readonly unknown[]): Omit<TreeRow, 'attachments'>[] {
  return parseRows(MessageRow, rows, 'message');
}
