import { z } from 'zod';

// The shapes tools return as structuredContent. Each tool parses its structured result with
// these before answering, which drops any field a store adds that the advertised schema lacks.

/** `truncated`, on every tool's result. */
export const truncatedOutput = z
  .boolean()
  .describe('true when the result was cut to stay within the result budget (the text says how)');

/** Which id a tool was given, when it takes chatgraph's or the platform's. */
export const matchedIdOutput = z
  .enum(['chatgraph', 'platform'])
  .describe("whether the id given was chatgraph's or the platform's");

/** A conversation (ConversationInfo). */
export const conversationOutput = z.object({
  id: z.string().describe("chatgraph's conversation id"),
  platformId: z.string().describe("the platform's conversation id"),
  title: z.string().nullable(),
  name: z.string(),
  source: z.string(),
  createdAt: z.string(),
  updatedAt: z.string().nullable(),
  messageCount: z.number().int(),
});

const attachmentOutput = z.object({
  id: z.string(),
  name: z.string().nullable(),
  mimeType: z.string().nullable(),
  ref: z.string().nullable(),
  sizeBytes: z.number().nullable(),
  text: z.string().nullable(),
});

/** A message (ThreadMessage). */
export const messageOutput = z.object({
  id: z.string().describe('the message id get_message_context takes'),
  role: z.string(),
  content: z.string(),
  createdAt: z.string(),
  model: z.string().nullable(),
  parentId: z.string().nullable(),
  isThought: z.boolean(),
  hidden: z.boolean(),
  onShownThread: z.boolean(),
  depth: z.number().int(),
  attachments: z.array(attachmentOutput),
});

/** A search hit (SearchHit), its snippet's matches in **bold**. */
export const hitOutput = z.object({
  conversationId: z.string(),
  platformConversationId: z.string(),
  title: z.string(),
  source: z.string(),
  messageId: z.string(),
  role: z.string(),
  createdAt: z.string(),
  snippet: z.string(),
  score: z.number(),
  kind: z.string().optional().describe('message (default), attachment, title or memory'),
  attachment: z.object({ id: z.string(), name: z.string().nullable() }).optional(),
  why: z
    .object({
      keyword: z.object({ rank: z.number().int() }).optional(),
      semantic: z.object({ rank: z.number().int(), similarity: z.number() }).optional(),
    })
    .optional(),
});
