import { z } from 'zod';
import {
  attachedToSchema,
  conversationHitSchema,
  conversationPassageSchema,
  hitMemorySchema,
  hitReasonSchema,
  searchHitSchema,
} from '../search/search-hit.js';
import { memoryView } from '../web/api-responses.js';

// The shapes tools return as structuredContent. Each tool parses its structured result with
// these before answering, which drops any field a store adds that the advertised schema lacks.

/** `truncated`, on every tool's result. */
export const truncatedOutput = z.boolean();

/** Where the next page starts; null on the last. */
export const nextOffsetOutput = z.number().int().nullable();

/** Which id a tool was given, when it takes chatgraph's or the platform's. */
export const matchedIdOutput = z.enum(['chatgraph', 'platform']);

/** A conversation (ConversationInfo). */
export const conversationOutput = z.object({
  id: z.string(),
  platformId: z.string(),
  title: z.string().nullable(),
  name: z.string(),
  source: z.string(),
  createdAt: z.string(),
  updatedAt: z.string().nullable(),
  messageCount: z.number().int(),
});

/** Where a conversation lives on its platform; left out when its export does not tell. */
export const platformUrlOutput = z.string().optional();

/** A conversation of a listing: a conversation and where it lives on its platform. */
export const listedConversationOutput = conversationOutput.extend({ url: platformUrlOutput });

/** An attachment of a message. */
export const attachmentOutput = z.object({
  id: z.string(),
  name: z.string().nullable(),
  mimeType: z.string().nullable(),
  ref: z.string().nullable(),
  sizeBytes: z.number().nullable(),
  text: z.string().nullable(),
});

/** A message (ThreadMessage). */
export const messageOutput = z.object({
  id: z.string(),
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

// A hit's shapes are the library's one declaration (search/search-hit.ts), stripping rather
// than refusing a field the advertised schema lacks; `kind` stays free text on a hit, so an
// agent reads a kind added later.

/** Why a hit matched: by words (its rank), by meaning (its rank and cosine similarity), or both. */
export const whyOutput = hitReasonSchema.strip();

/** Which attachment a hit is in. */
export const attachmentRefOutput = attachedToSchema.strip();

/** The memory a memory hit is. */
export const memoryRefOutput = hitMemorySchema.strip();

/** A search hit (SearchHit), its snippet's matches in **bold**. */
export const hitOutput = searchHitSchema
  .omit({ memory: true })
  .extend({ kind: z.string().optional() })
  .strip();

/** A memory a search found beside the hits. */
export const memoryHitOutput = hitOutput.extend({ memory: memoryRefOutput });

/** A passage of a conversation a search found. */
export const passageOutput = conversationPassageSchema.strip();

/** A conversation a search found, with its best passages. */
export const conversationHitOutput = conversationHitSchema
  .extend({ url: platformUrlOutput, best: passageOutput, passages: z.array(passageOutput) })
  .strip();

/** A memory (the web API's, one library type behind both). */
export const memoryOutput = memoryView;
