/**
 * The web API's answers as zod schemas: the server's handlers are typed by them, the API test
 * checks every route's answer against them, and the browser's types are `z.infer` of them. This
 * file imports zod alone, because the browser's own compilation reads it too (for types only; see
 * src/web/client/tsconfig.json). Objects are strict: a field a handler adds without saying so here
 * fails the test.
 */
import { z } from 'zod';
import { conversationHitSchema, searchHitSchema } from '../search/search-hit.js';
import { MEMORY_TYPES } from '../model/memory-type.js';
import { memoryRelation, memoryStatus } from './api-memory-relation.js';

const count = z.number().int().nonnegative();
const nullableText = z.string().nullable();

/** PAM's memory types: the model's one list. */
export const API_MEMORY_TYPES = MEMORY_TYPES;

export const conversationInfo = z
  .object({
    id: z.string(),
    platformId: z.string(),
    title: nullableText,
    name: z.string(),
    source: z.string(),
    createdAt: z.string(),
    updatedAt: nullableText,
    messageCount: count,
  })
  .strict();

export const sourceList = z.array(z.string());

export const toolCallView = z
  .object({
    name: z.string(),
    input: nullableText,
    output: nullableText,
    isError: z.boolean(),
    inputLanguage: nullableText,
    inputAbove: z.boolean(),
  })
  .strict();

export const attachmentView = z
  .object({
    type: z.string(),
    name: nullableText,
    mime_type: nullableText,
    size_bytes: z.number().nullable(),
    ref: nullableText,
    /** Pasted or extracted text; null for other files. */
    text: nullableText,
  })
  .strict();

export const citationView = z
  .object({ title: nullableText, url: nullableText, snippet: nullableText })
  .strict();

export const messageView = z
  .object({
    id: z.string(),
    role: z.string(),
    content: z.string(),
    createdAt: z.string(),
    model: nullableText,
    parentId: nullableText,
    isThought: z.boolean(),
    hidden: z.boolean(),
    onShownThread: z.boolean(),
    depth: count,
    toolCalls: z.array(toolCallView),
    attachments: z.array(attachmentView),
    citations: z.array(citationView),
    code: z.object({ language: nullableText }).strict().nullable(),
    textShown: z.boolean(),
  })
  .strict();

/** A page of one conversation's messages. */
export const conversationPage = z
  .object({
    conversation: conversationInfo,
    url: z.string().url().nullable(),
    messages: z.array(messageView),
    offset: count,
    total: count,
    nextOffset: count.nullable(),
  })
  .strict();

/** A search hit: the library's one declaration (search/search-hit.ts). */
export const searchHit = searchHitSchema;

export const searchMode = z.enum(['keyword', 'semantic', 'hybrid']);

export const searchResult = z
  .object({
    mode: searchMode,
    hits: z.array(searchHit),
    matches: count,
    matchesCapped: z.boolean(),
    ranked: count,
    conversationCount: count.optional(),
    offset: count.optional(),
    hint: z.string().optional(),
    nearest: z.array(searchHit).optional(),
    notice: z.string().optional(),
    memories: z.array(searchHit).optional(),
    belowFloor: count.optional(),
    byWordsOnly: z.literal(true).optional(),
  })
  .strict();

/** One conversation of a grouped search: its best passage, the next few, how many more. */
export const conversationHit = conversationHitSchema;

/** GET /api/search/conversations: one entry per conversation, memories apart. */
export const conversationResult = z
  .object({
    mode: searchMode,
    conversations: z.array(conversationHit),
    memories: z.array(searchHit),
    matches: count,
    matchesCapped: z.boolean(),
    offset: count,
    more: z.boolean(),
    conversationCount: count.optional(),
    summary: z.string(),
    belowFloor: count.optional(),
    byWordsOnly: z.literal(true).optional(),
    hint: z.string().optional(),
    nearest: z.array(searchHit).optional(),
    notice: z.string().optional(),
  })
  .strict();

export const similarHits = z.object({ hits: z.array(searchHit) }).strict();

export const graphView = z
  .object({
    nodes: z.array(
      z
        .object({
          id: z.string(),
          label: z.string(),
          caption: z.string(),
          properties: z.record(z.unknown()),
        })
        .strict(),
    ),
    edges: z.array(
      z.object({ id: z.string(), kind: z.string(), from: z.string(), to: z.string() }).strict(),
    ),
    focus: nullableText,
    omitted: count,
  })
  .strict();

export { stats, topicMap, usage } from './api-overview-responses.js';
export type { Stats, TopicMapView, UsageView } from './api-overview-responses.js';

export const cypherResult = z
  .object({ rows: z.array(z.record(z.unknown())), milliseconds: z.number().nonnegative() })
  .strict();

export const changeCount = z.object({ changes: z.number().nullable() }).strict();

const diagnostic = z
  .object({
    level: z.enum(['error', 'warning', 'info']),
    code: z.string(),
    message: z.string(),
    file: z.string().optional(),
    record: z.string().optional(),
    offset: z.number().optional(),
  })
  .strict();

export const problemGroup = z
  .object({
    code: z.string(),
    level: z.enum(['error', 'warning', 'info']),
    count,
    examples: z.array(diagnostic),
  })
  .strict();

const providerSummary = z
  .object({
    conversations: count,
    messages: count,
    branches: count,
    toolCalls: count,
    attachments: count,
    attachmentsCopied: count,
    attachmentTexts: count,
    attachmentsMissing: count,
    memories: count,
    skipped: count,
    inferredTimestamps: count,
    keptNewer: count,
    keptApart: count,
  })
  .strict();

export const importReport = z
  .object({
    bundle: z.string(),
    files: z.array(
      z
        .object({
          file: z.string(),
          provider: z.string(),
          role: z.string(),
          variant: z.string(),
          checksum: z.string().optional(),
          bytes: z.number().optional(),
        })
        .strict(),
    ),
    providers: z.record(providerSummary),
    totals: providerSummary,
    written: z
      .object({ created: count, updated: count, unchanged: count, duplicates: count })
      .strict(),
    redactions: z.record(count),
    problems: z.array(problemGroup),
    graph: z.object({ written: count, unchanged: count, reindexed: z.boolean() }).strict(),
  })
  .strict();

export const importJob = z
  .object({
    id: z.string(),
    file: z.string(),
    state: z.enum(['running', 'done', 'failed']),
    progress: z
      .object({
        phase: z.enum(['checksum', 'convert', 'finish', 'push']),
        bytesDone: count,
        bytesTotal: count,
        conversations: count,
      })
      .strict()
      .optional(),
    report: importReport.optional(),
    error: z.string().optional(),
  })
  .strict();

export const memoryView = z
  .object({
    id: z.string(),
    type: z.enum(API_MEMORY_TYPES),
    customType: z.string().optional(),
    status: memoryStatus,
    content: z.string(),
    summary: z.string().optional(),
    tags: z.array(z.string()),
    confidence: z.number().optional(),
    createdAt: z.string(),
    updatedAt: z.string().optional(),
    supersededBy: z.string().optional(),
    supersedes: z.string().optional(),
    platform: z.string(),
    extractionMethod: z.string(),
    source: z
      .object({
        conversationId: z.string(),
        messageId: z.string().optional(),
        title: z.string().optional(),
      })
      .strict()
      .optional(),
    snippet: z.string().optional(),
    relations: z.array(memoryRelation).optional(),
  })
  .strict();

export const memoryPage = z
  .object({ total: count, offset: count, items: z.array(memoryView) })
  .strict();

/** Whether a memory written was embedded at once, waits for `chatgraph embed`, or never will. */
const vectorNote = z
  .object({ state: z.enum(['embedded', 'pending', 'none']), note: z.string() })
  .strict();

// `notes`: what the write did to a signed bundle's signature (a failure found before it, the
// signature dropped), as the CLI says them on stderr and the MCP tools in their text.
export const remembered = z
  .object({
    created: z.boolean(),
    vector: vectorNote,
    memory: memoryView,
    notes: z.array(diagnostic),
  })
  .strict();

export const revised = z
  .object({
    vector: vectorNote,
    previous: memoryView,
    memory: memoryView,
    notes: z.array(diagnostic),
  })
  .strict();

export const forgotten = z.object({ memory: memoryView, notes: z.array(diagnostic) }).strict();

export const deleted = z
  .object({
    id: z.string(),
    platformId: nullableText,
    source: nullableText,
    bundle: z.boolean(),
    store: z.boolean(),
    attachments: count,
    problems: z.array(diagnostic),
  })
  .strict();

/** Every refusal and failure: one sentence. */
export const errorBody = z.object({ error: z.string() }).strict();

export type ConversationInfo = z.infer<typeof conversationInfo>;
export type ToolCallView = z.infer<typeof toolCallView>;
export type AttachmentView = z.infer<typeof attachmentView>;
export type CitationView = z.infer<typeof citationView>;
export type MessageView = z.infer<typeof messageView>;
export type ConversationPage = z.infer<typeof conversationPage>;
export type SearchHit = z.infer<typeof searchHit>;
export type SearchMode = z.infer<typeof searchMode>;
export type SearchResult = z.infer<typeof searchResult>;
export type ConversationSearchResult = z.infer<typeof conversationResult>;
export type ConversationSearchHit = z.infer<typeof conversationHit>;
export type GraphView = z.infer<typeof graphView>;
export type CypherResult = z.infer<typeof cypherResult>;
export type ProblemGroup = z.infer<typeof problemGroup>;
export type ImportJob = z.infer<typeof importJob>;
export type MemoryView = z.infer<typeof memoryView>;
export type MemoryPage = z.infer<typeof memoryPage>;
