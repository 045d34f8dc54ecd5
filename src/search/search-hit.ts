import { z } from 'zod';

// The one declaration of a search hit and of a conversation a search found: the library's types
// are inferred from these schemas, the web API answers with them (web/api-responses.ts), the MCP
// server's output schemas are derived from them (mcp/output-schemas.ts), and the page's readers
// are typed by them (web/client/answers.ts). This file imports zod alone: the page's own
// compilation reads it for its types. Objects are strict: a field a store adds without saying
// so here fails the web API's test instead of vanishing.

const rank = z.number().int().positive();

/** Why a hit matched, for people and agents reading results. */
export const hitReasonSchema = z
  .object({
    /** Matched by words: its rank among keyword hits (1-based). */
    keyword: z.object({ rank }).strict().optional(),
    /** Matched by meaning: its rank among vector hits (1-based) and cosine similarity. */
    semantic: z.object({ rank, similarity: z.number() }).strict().optional(),
  })
  .strict();

/** Which attachment a hit is in. */
export const attachedToSchema = z.object({ id: z.string(), name: z.string().nullable() }).strict();

/** The memory a memory hit is: its PAM id, type and tags. */
export const hitMemorySchema = z
  .object({ id: z.string(), type: z.string(), tags: z.array(z.string()) })
  .strict();

/** One ranked search hit. */
export const searchHitSchema = z
  .object({
    conversationId: z.string(),
    /** The platform's conversation id. */
    platformConversationId: z.string(),
    title: z.string(),
    source: z.string(),
    messageId: z.string(),
    role: z.string(),
    createdAt: z.string(),
    /** The matching passage, matched words between MATCH_START and MATCH_END (search/snippet). */
    snippet: z.string(),
    /** BM25 score (higher is better). */
    score: z.number(),
    /**
     * What matched: the message (the default), text attached to it, the conversation's title,
     * or a memory (then `memory` names it, and the conversation and message are its source,
     * empty when it has none).
     */
    kind: z.enum(['message', 'attachment', 'title', 'memory']).optional(),
    /** Set on a memory hit. */
    memory: hitMemorySchema.optional(),
    /** Set when the hit is in text pasted or attached to the message, not the message itself. */
    attachment: attachedToSchema.optional(),
    /** Why it matched: the words it matched, how close in meaning it is, or both. */
    why: hitReasonSchema.optional(),
  })
  .strict();

/** One passage of a conversation that matched: where it is and what it says. */
export const conversationPassageSchema = searchHitSchema
  .pick({ messageId: true, snippet: true, role: true, attachment: true, why: true })
  .extend({
    /** The message it is in (for a title match, the conversation's first message once resolved). */
    messageId: z.string(),
    kind: z.enum(['message', 'attachment', 'title']),
  });

/** One conversation of a search's answer, with its best passage and the next few. */
export const conversationHitSchema = searchHitSchema
  .pick({
    conversationId: true,
    platformConversationId: true,
    title: true,
    source: true,
    createdAt: true,
    /** Why its best passage matched. */
    why: true,
    /** The best passage's score (as its row had). */
    score: true,
  })
  .extend({
    best: conversationPassageSchema,
    /** How many more of its passages matched besides the best (among the rows ranked). */
    more: z.number().int(),
    /** The next best passages after the best one, at most `passages` of them. */
    passages: z.array(conversationPassageSchema),
  });

export type SearchHit = z.infer<typeof searchHitSchema>;
export type HitReason = z.infer<typeof hitReasonSchema>;
export type ConversationPassage = z.infer<typeof conversationPassageSchema>;
export type ConversationHit = z.infer<typeof conversationHitSchema>;
