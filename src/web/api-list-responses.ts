/**
 * The conversation list's answer (GET /api/conversations), beside the other answers in
 * api-responses.ts; like it, this file imports zod alone (the browser's compilation reads it).
 */
import { z } from 'zod';
import { conversationInfo } from './api-responses.js';

/** A listed conversation: its preview (first user message, plain text) and model too. */
export const conversationListItem = conversationInfo
  .extend({ preview: z.string(), model: z.string().nullable() })
  .strict();

/** A page of the list; `nextCursor` is the next page's `after`, null on the last. */
export const conversationList = z
  .object({
    total: z.number().int().nonnegative(),
    items: z.array(conversationListItem),
    nextCursor: z.string().nullable(),
  })
  .strict();

export type ConversationList = z.infer<typeof conversationList>;
export type ConversationListItem = z.infer<typeof conversationListItem>;
