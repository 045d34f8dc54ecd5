import { z } from 'zod';
import type { PendingConversation, UnitKind } from '../vector-index.js';
import { Integer, NullableText, Text } from './sqlite-rows.js';

// The rows the vector index reads a few at a time (what is pending, a search's candidates and
// what they describe), parsed with zod as the store's other rows are.
// The rows it reads by the million are narrowed by hand instead (sqlite-raw-row.ts).

/** A conversation whose vectors are missing or older than its content. */
export const PendingRow = z.object({
  owner: Text,
  hash: Text,
  embedded: NullableText,
}) satisfies z.ZodType<PendingConversation, z.ZodTypeDef, unknown>;

const UNIT_KINDS = ['message', 'attachment', 'title'] as const satisfies readonly UnitKind[];

/** A search's candidate, with its float32 vector to score it exactly. */
export const UnitRow = z.object({
  rowid: Integer,
  owner: Text,
  node_id: Text,
  kind: z.enum(UNIT_KINDS),
  message_id: NullableText,
  start: Integer,
  end: Integer,
  vector: z.instanceof(Buffer),
});

/** The conversation a hit is in. */
export const ConversationHitRow = z.object({
  id: Text,
  platformId: Text,
  name: Text,
  source: Text,
});

/** The message a hit is in (its text is where the snippet is cut from). */
export const MessageHitRow = z.object({
  id: Text,
  role: Text,
  createdAt: Text,
  content: NullableText,
});

/** The attachment a hit is in. */
export const AttachmentHitRow = z.object({ name: NullableText, content: NullableText });
