import { z } from 'zod';
import type { PendingConversation, UnitKind } from '../vector-index.js';
import {
  blobColumn,
  nullableTextColumn,
  numberColumn,
  rawRow,
  textColumn,
  unreadableColumn,
  type RowAt,
} from './sqlite-raw-row.js';
import { NullableText, Text } from './sqlite-rows.js';

// The rows the vector index reads a few at a time (what is pending, what a search's hits are
// in), parsed with zod as the store's other rows are; a search's candidates are narrowed by hand
// (sqlite-raw-row.ts), as the rows read by the million are.

/** A conversation whose vectors are missing or older than its content. */
export const PendingRow = z.object({
  owner: Text,
  hash: Text,
  embedded: NullableText,
}) satisfies z.ZodType<PendingConversation, z.ZodTypeDef, unknown>;

const UNIT_KINDS: ReadonlySet<string> = new Set<UnitKind>(['message', 'attachment', 'title']);
const isUnitKind = (value: unknown): value is UnitKind =>
  typeof value === 'string' && UNIT_KINDS.has(value);

/** A search's candidate, with its float32 vector to score it exactly. */
export interface Candidate {
  owner: string;
  nodeId: string;
  kind: UnitKind;
  messageId: string | null;
  start: number;
  end: number;
  vector: Buffer;
}

/** The columns a candidate is read with, in the order {@link candidateOf} takes them. */
export const CANDIDATE_COLUMNS = `owner, node_id, kind, message_id, start, "end", vector`;

/**
 * A candidate's raw row, narrowed by hand: every search reads a hundred or more, where zod
 * measured about 10 µs a row (a millisecond a search) and this next to nothing.
 */
export function candidateOf(row: unknown, at: RowAt): Candidate {
  const [owner, nodeId, kind, messageId, start, end, vector] = rawRow(row, 7, at);
  if (!isUnitKind(kind)) throw unreadableColumn(at, 'kind', 'message, attachment or title', kind);
  return {
    owner: textColumn(owner, 'owner', at),
    nodeId: textColumn(nodeId, 'node_id', at),
    kind,
    messageId: nullableTextColumn(messageId, 'message_id', at),
    start: numberColumn(start, 'start', at),
    end: numberColumn(end, 'end', at),
    vector: blobColumn(vector, 'vector', at),
  };
}

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
