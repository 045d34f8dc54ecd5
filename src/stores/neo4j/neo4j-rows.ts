import { z } from 'zod';
import {
  ConversationRow,
  ListRow,
  nullableText,
  parseRows as parseStoreRows,
  text,
} from '../store-rows.js';
import type { ConversationInfo } from '../store.js';
import type { TreeRow } from '../thread-tree.js';

export { STATS_ROWS, MessageRefRow } from '../store-rows.js';

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

/** Parses rows Neo4j gave with `schema` (see store-rows.ts). */
export function parseRows<T>(
  schema: z.ZodType<T, z.ZodTypeDef, unknown>,
  rows: readonly unknown[],
  what: string,
): T[] {
  return parseStoreRows(schema, rows, what, 'Neo4j');
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
