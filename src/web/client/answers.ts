import type { MemoryType } from '../../model/memory-type.js';
import type {
  Answer,
  ConversationPage,
  ConversationSearchHit,
  ConversationSearchResult,
  GraphView,
  ImportJob,
  MemoryPage,
  MemoryView,
  SearchHit,
  Stats,
  TopicMapView,
} from './api.js';
import {
  anything,
  array,
  boolean,
  nullable,
  number,
  object,
  objectOf,
  oneOf,
  optional,
  record,
  text,
  yes,
  type Reader,
} from './read-json.js';

// The readers of the API's answers the page uses, field for field the server's schemas
// (src/web/api-responses.ts and beside it). Each is declared as a Reader of the schema's type,
// so the compiler refuses one that leaves out a field the type requires or reads it as another
// kind; the web tests read every page's answers through them.

const nullableText = nullable(text);

export const conversationInfo = object({
  id: text,
  platformId: text,
  title: nullableText,
  name: text,
  source: text,
  createdAt: text,
  updatedAt: nullableText,
  messageCount: number,
});

const messageView = object({
  id: text,
  role: text,
  content: text,
  createdAt: text,
  model: nullableText,
  parentId: nullableText,
  isThought: boolean,
  hidden: boolean,
  onShownThread: boolean,
  depth: number,
  toolCalls: array(
    object({
      name: text,
      input: nullableText,
      output: nullableText,
      isError: boolean,
      inputLanguage: nullableText,
      inputAbove: boolean,
    }),
  ),
  attachments: array(
    object({
      type: text,
      name: nullableText,
      mime_type: nullableText,
      size_bytes: nullable(number),
      ref: nullableText,
      text: nullableText,
    }),
  ),
  citations: array(object({ title: nullableText, url: nullableText, snippet: nullableText })),
  code: nullable(object({ language: nullableText })),
  textShown: boolean,
});

/** GET /api/conversations/:id */
export const conversationPage: Reader<ConversationPage> = object({
  conversation: conversationInfo,
  url: nullableText,
  messages: array(messageView),
  offset: number,
  total: number,
  nextOffset: nullable(number),
});

/** GET /api/conversations */
export const conversationList: Reader<Answer<'listConversations'>> = object({
  total: number,
  items: array(
    object({
      id: text,
      platformId: text,
      title: nullableText,
      name: text,
      source: text,
      createdAt: text,
      updatedAt: nullableText,
      messageCount: number,
      preview: text,
      model: nullableText,
    }),
  ),
  nextCursor: nullableText,
});

/** GET /api/sources */
export const sourceList: Reader<Answer<'sources'>> = array(text);

/** GET /api/changes */
export const changeCount: Reader<Answer<'changes'>> = object({ changes: nullable(number) });

// The hit's readers name every field of the one declaration (search/search-hit.ts): objectOf
// refuses a reader that leaves one out or adds one.
type Passage = ConversationSearchHit['best'];
type HitReason = NonNullable<SearchHit['why']>;
const attachedTo = objectOf<NonNullable<SearchHit['attachment']>>({ id: text, name: nullableText });
const hitReason = objectOf<HitReason>({
  keyword: optional(objectOf<NonNullable<HitReason['keyword']>>({ rank: number })),
  semantic: optional(
    objectOf<NonNullable<HitReason['semantic']>>({ rank: number, similarity: number }),
  ),
});

export const searchHit: Reader<SearchHit> = objectOf<SearchHit>({
  conversationId: text,
  platformConversationId: text,
  title: text,
  source: text,
  messageId: text,
  role: text,
  createdAt: text,
  snippet: text,
  score: number,
  kind: optional(oneOf('message', 'attachment', 'title', 'memory')),
  memory: optional(
    objectOf<NonNullable<SearchHit['memory']>>({ id: text, type: text, tags: array(text) }),
  ),
  attachment: optional(attachedTo),
  why: optional(hitReason),
});

const passage = objectOf<Passage>({
  messageId: text,
  snippet: text,
  role: text,
  kind: oneOf('message', 'attachment', 'title'),
  attachment: optional(attachedTo),
  why: optional(hitReason),
});

const conversationHit = objectOf<ConversationSearchHit>({
  conversationId: text,
  platformConversationId: text,
  title: text,
  source: text,
  createdAt: text,
  why: optional(hitReason),
  score: number,
  best: passage,
  more: number,
  passages: array(passage),
});

/** GET /api/search/conversations */
export const conversationSearchResult: Reader<ConversationSearchResult> = object({
  mode: oneOf('keyword', 'semantic', 'hybrid'),
  conversations: array(conversationHit),
  memories: array(searchHit),
  matches: number,
  matchesCapped: boolean,
  offset: number,
  more: boolean,
  conversationCount: optional(number),
  summary: text,
  belowFloor: optional(number),
  byWordsOnly: optional(yes),
  hint: optional(text),
  nearest: optional(array(searchHit)),
  notice: optional(text),
});

/** GET /api/similar/:id */
export const similarHits: Reader<Answer<'similar'>> = object({ hits: array(searchHit) });

/** GET /api/graph/:id */
export const graphView: Reader<GraphView> = object({
  nodes: array(object({ id: text, label: text, caption: text, properties: record(anything) })),
  edges: array(object({ id: text, kind: text, from: text, to: text })),
  focus: nullableText,
  omitted: number,
});

/** POST /api/cypher */
export const cypherResult: Reader<Answer<'cypher'>> = object({
  rows: array(record(anything)),
  milliseconds: number,
});

/** GET /api/overview */
export const stats: Reader<Stats> = object({
  conversations: number,
  messages: number,
  bySource: array(object({ source: text, conversations: number, messages: number })),
  byMonth: array(
    object({ month: nullableText, source: text, messages: number, conversations: number }),
  ),
  byRole: array(object({ role: text, messages: number })),
  byModel: array(object({ model: text, messages: number })),
});

/** GET /api/topics */
export const topicMap: Reader<TopicMapView> = object({
  embedded: boolean,
  model: nullableText,
  conversations: number,
  capped: boolean,
  clusters: array(
    object({
      id: number,
      name: text,
      words: array(text),
      size: number,
      conversations: array(object({ id: text, title: text, source: text })),
      central: nullable(object({ id: text, title: text })),
      nearest: nullable(object({ id: number, similarity: number })),
    }),
  ),
  milliseconds: number,
});

const diagnostic = object({
  level: oneOf('error', 'warning', 'info'),
  code: text,
  message: text,
  file: optional(text),
  record: optional(text),
  offset: optional(number),
});

const providerSummary = object({
  conversations: number,
  messages: number,
  branches: number,
  toolCalls: number,
  attachments: number,
  attachmentsCopied: number,
  attachmentTexts: number,
  attachmentsMissing: number,
  memories: number,
  skipped: number,
  inferredTimestamps: number,
  keptNewer: number,
  keptApart: number,
});

const importReport = object({
  bundle: text,
  files: array(
    object({
      file: text,
      provider: text,
      role: text,
      variant: text,
      checksum: optional(text),
      bytes: optional(number),
    }),
  ),
  providers: record(providerSummary),
  totals: providerSummary,
  written: object({ created: number, updated: number, unchanged: number, duplicates: number }),
  redactions: record(number),
  problems: array(
    object({
      code: text,
      level: oneOf('error', 'warning', 'info'),
      count: number,
      examples: array(diagnostic),
    }),
  ),
  graph: object({ written: number, unchanged: number, reindexed: boolean }),
});

/** POST /api/import, and each event of GET /api/import/:id/events */
export const importJob: Reader<ImportJob> = object({
  id: text,
  file: text,
  state: oneOf('running', 'done', 'failed'),
  progress: optional(
    object({
      phase: oneOf('checksum', 'convert', 'finish', 'push'),
      bytesDone: number,
      bytesTotal: number,
      conversations: number,
    }),
  ),
  report: optional(importReport),
  error: optional(text),
});

const memoryStatus = oneOf('active', 'superseded', 'deprecated', 'retracted', 'archived');

/**
 * PAM's memory types (the page offers them when remembering, and reads them in answers): the
 * browser loads no module outside the page, so the list is written here, held to the model's
 * one list by the compiler (none other, none missing).
 */
// The list given, refused by the compiler when it leaves out one of the model's types.
const everyMemoryType = <const T extends readonly MemoryType[]>(
  list: T & ([Exclude<MemoryType, T[number]>] extends [never] ? unknown : never),
): T => list;

export const MEMORY_TYPES = everyMemoryType([
  'fact',
  'preference',
  'skill',
  'context',
  'relationship',
  'goal',
  'instruction',
  'identity',
  'environment',
  'project',
  'custom',
]);

export const memoryView: Reader<MemoryView> = object({
  id: text,
  type: oneOf(...MEMORY_TYPES),
  customType: optional(text),
  status: memoryStatus,
  content: text,
  summary: optional(text),
  tags: array(text),
  confidence: optional(number),
  createdAt: text,
  updatedAt: optional(text),
  supersededBy: optional(text),
  supersedes: optional(text),
  platform: text,
  extractionMethod: text,
  source: optional(
    object({ conversationId: text, messageId: optional(text), title: optional(text) }),
  ),
  snippet: optional(text),
  relations: optional(
    array(
      object({
        type: oneOf(
          'supports',
          'contradicts',
          'extends',
          'supersedes',
          'related_to',
          'derived_from',
        ),
        direction: oneOf('out', 'in'),
        memoryId: text,
        content: text,
        status: memoryStatus,
      }),
    ),
  ),
});

/** GET /api/memories */
export const memoryPage: Reader<MemoryPage> = object({
  total: number,
  offset: number,
  items: array(memoryView),
});

const vectorNote = object({ state: oneOf('embedded', 'pending', 'none'), note: text });

/** POST /api/memories */
export const remembered: Reader<Answer<'remember'>> = object({
  created: boolean,
  vector: vectorNote,
  memory: memoryView,
  notes: array(diagnostic),
});

/** DELETE /api/memories/:id */
export const forgotten: Reader<Answer<'forget'>> = object({
  memory: memoryView,
  notes: array(diagnostic),
});

/** A refusal or failure's body: its one sentence. */
export const errorBody = object({ error: text });
