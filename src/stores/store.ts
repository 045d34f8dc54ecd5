import type { GraphBatch } from '../graph/graph-batch.js';
import type { GraphDelta } from '../graph/graph-delta.js';
import type { MemoryIndex } from './memory-index.js';
import type { UsageReader } from './usage-reader.js';
import type { VectorIndex } from './vector-index.js';

/** One result row of a Cypher query, keyed by the RETURN column names. */
export type Row = Record<string, unknown>;

/** How a search finds text: by its words (BM25), by its meaning (vectors), or both fused. */
export type SearchMode = 'keyword' | 'semantic' | 'hybrid';

/** How far one user query may go before it is stopped. */
export interface QueryLimits {
  /** Wall-clock seconds, from the moment it is asked to its last row. */
  timeoutSeconds: number;
  /** Memory in MB the process running it may take (the embedded store; Neo4j's server sets its own). */
  memoryMb: number;
}

/** A search over message text (and the text attached to messages). */
export interface SearchQuery {
  text: string;
  /** Keyword when absent (the stores' own search is by words; meaning needs vectors). */
  mode?: SearchMode;
  /** Hits to skip (paging past the first page). */
  offset?: number;
  source?: string;
  /** ISO date or timestamp: only messages at or after it. */
  since?: string;
  /** ISO date or timestamp: only messages before it. */
  until?: string;
  role?: string;
  limit?: number;
  /** The longest the search may run, in seconds, before it is stopped (a server's query timeout). */
  timeoutSeconds?: number;
  /**
   * Snippets are made for this many hits of each conversation, its first in the ranking; the
   * others' snippet is empty. An answer grouped by conversation shows no more than its best
   * passage and the next few, and cutting a snippet is most of a cold keyword search's own work
   * (issue 46). All of them when absent; a store may make them all anyway.
   */
  snippetsPerConversation?: number;
}

/** Marks around the matched words of a snippet (private-use characters, never in chat text by accident). */
export const MATCH_START = '\ue000';
export const MATCH_END = '\ue001';

import type { SearchHit } from '../search/search-hit.js';

export type { HitReason, SearchHit } from '../search/search-hit.js';

/** Ranked hits, and how many messages and attachments matched at all. */
export interface SearchResult {
  /** How the hits were found. */
  mode: SearchMode;
  hits: SearchHit[];
  /** Messages and attachments matching the search and its filters (source, dates, role), counted up to a cap. */
  matches: number;
  /** True when more match than `matches` says. */
  matchesCapped: boolean;
  /**
   * The conversations holding the words (a message's or attachment's text matching the search
   * and its filters), counted exactly, whatever the page; absent in a search by meaning alone.
   */
  conversationCount?: number;
  /**
   * How many of them were ranked: a word in thousands of messages is ranked among the most
   * recently indexed matches only, so a search stays fast; 0 when only very common words were
   * given (then the newest matches are listed).
   */
  ranked: number;
  /** Hits skipped before these (paging). */
  offset?: number;
  /**
   * When nothing matched: the search with each word found nowhere replaced by the nearest word
   * that is (for "no match for X; did you mean Y?").
   */
  hint?: string;
  /** When no word matched: the hits nearest in meaning, if the store has vectors. */
  nearest?: SearchHit[];
  /**
   * Hits found by meaning only that were left out as too far from the query (below the model's
   * relevance floor), in a semantic or hybrid search.
   */
  belowFloor?: number;
  /**
   * The question was left to its words (in a language the model does not read): nothing was
   * judged by meaning, and `belowFloor` is not given.
   */
  byWordsOnly?: true;
  /** Something the person should know about how the search ran (e.g. why it was by words only). */
  notice?: string;
  /**
   * Active memories matching the search (kind `memory`) as the hits were found: by words, by
   * meaning, or both fused (each one's `why` says which), on the first page only: they are not
   * paged with the hits, so a memory never pushes a message off a page.
   */
  memories?: SearchHit[];
}

/** Something attached to a message (a file, an image, pasted text), as `thread` returns it. */
export interface ThreadAttachment {
  /** The Attachment node's id. */
  id: string;
  name: string | null;
  mimeType: string | null;
  /** Where the bundle keeps it (bundle-relative), or null when the export did not hold it. */
  ref: string | null;
  sizeBytes: number | null;
  /** Its text, for pasted or extracted text the export held; null otherwise. */
  text: string | null;
}

/** One message as `thread` returns it. */
export interface ThreadMessage {
  id: string;
  role: string;
  content: string;
  createdAt: string;
  model: string | null;
  parentId: string | null;
  isThought: boolean;
  hidden: boolean;
  onShownThread: boolean;
  /** Depth in the tree (0 for a root). */
  depth: number;
  /** What was attached to it, in its order (pasted text with that text). */
  attachments: ThreadAttachment[];
}

/** A conversation found by id. */
export interface ConversationInfo {
  id: string;
  platformId: string;
  title: string | null;
  name: string;
  source: string;
  createdAt: string;
  updatedAt: string | null;
  messageCount: number;
}

/** A message found by (a prefix of) its id: its id and its conversation's. */
export interface MessageRef {
  /** The message's node id, `{conversation id}:{message id}`. */
  id: string;
  conversationId: string;
}

/** Which conversations to list. */
export interface ConversationFilter {
  source?: string | undefined;
  /** ISO date: created at or after. */
  since?: string | undefined;
  /** ISO date: created before. */
  until?: string | undefined;
  /** Words the title contains (case-insensitive). */
  title?: string | undefined;
  /** Only conversations with tool calls. */
  hasToolCalls?: boolean | undefined;
  /** Only conversations that branch (edited prompts, regenerated answers). */
  hasBranches?: boolean | undefined;
  /** Words a project's name, path (Claude Code) or platform id (ChatGPT `g-p-…`) contains (case-insensitive). */
  project?: string | undefined;
  /** Only conversations with at least this many messages. */
  minMessages?: number | undefined;
  /** Newest or oldest created first, most messages, last updated first, or by title A to Z. */
  sort?: 'newest' | 'oldest' | 'most-messages' | 'updated' | 'title' | undefined;
  offset?: number | undefined;
  limit?: number | undefined;
  /**
   * The page after this cursor (a page's `nextCursor`, for the same filter and sort): read by
   * the sort's index from where the last page ended, however deep, where `offset` skips rows.
   */
  after?: string | undefined;
}

/** A listed conversation: what a list shows beside its title. */
export interface ConversationListItem extends ConversationInfo {
  /** Its first user message as one line of plain text ('' when none). */
  preview: string;
  /** The model it names, else the first its messages name. */
  model: string | null;
}

/** A page of conversations. */
export interface ConversationPage {
  total: number;
  items: ConversationListItem[];
  /** Where the next page starts (`after`), or null on the last page. */
  nextCursor: string | null;
}

/** Counts for `stats`. */
export interface Stats {
  conversations: number;
  messages: number;
  bySource: { source: string; conversations: number; messages: number }[];
  /** Messages a month per source, and the conversations with a message in that month. */
  byMonth: { month: string; source: string; messages: number; conversations: number }[];
  byRole: { role: string; messages: number }[];
  /** The models that wrote the most messages (ten at most). */
  byModel: { model: string; messages: number }[];
}

/** What a write did. */
export interface WriteReport {
  written: number;
  unchanged: number;
}

/** An imported export file, as the Import node records it. */
export interface ImportRecord {
  id: string;
  sourceFile: string;
  checksum: string;
  importer: string;
  importedAt: string;
  /** Size and CRC-32 from the zip, when the file was in one. */
  size?: number;
  crc32?: number;
  /** Whether it was imported with secrets masked (unknown for imports recorded from a bundle). */
  redacted?: boolean;
}

/** A batch with the hash of what it was made from, so an unchanged conversation is skipped. */
export type HashedBatch = GraphBatch & { hash?: string };

/** Writes conversations one at a time as an import produces them (see {@link Store.writer}). */
export interface GraphWriter {
  /** Writes, or queues, one conversation; a returned promise resolves when more may be given. */
  write(batch: HashedBatch): void | Promise<void>;
  /** Writes whatever is queued now (before an import is recorded as done). */
  flush(): Promise<void>;
  /** Writes whatever is queued, and reports the whole run. */
  end(): Promise<WriteReport>;
}

/**
 * The store as the import's sink: conversations written whole, grown, or as a delta, taken
 * out, or all cleared; `deep` is whether tool calls are projected into traces.
 */
export interface GraphSink {
  /** Replaces each batch's conversation (nodes and edges) with the batch; the same batch twice is a no-op. */
  upsert(batches: AsyncIterable<GraphBatch> | Iterable<GraphBatch>): Promise<WriteReport>;
  /**
   * Writes a conversation that grew since `previous` was written (a followed session log) at a
   * cost that follows the change, not the conversation; stores without it are written whole.
   */
  patch?(previous: HashedBatch, next: HashedBatch, deep: boolean): Promise<'written' | 'unchanged'>;
  /**
   * Writes a grown conversation's delta (see `GraphDelta`) over the version `base` of it the
   * store holds, as version `hash`, at the cost of the delta; `stale` (nothing written) when
   * the store does not hold `base` or the delta takes a node away: the caller writes it whole.
   */
  applyDelta?(
    delta: GraphDelta,
    base: string,
    hash: string,
    deep: boolean,
  ): Promise<'written' | 'stale'>;
  /** A writer for batches pushed one by one (by an import), `deep` as the store's mode. */
  writer(deep: boolean): GraphWriter;
  /**
   * Removes one conversation (chatgraph's or the platform's id): the nodes it owns, their
   * edges and its search entries; false when the store does not hold it.
   */
  deleteConversation(id: string): Promise<boolean>;
  /** Removes every node and edge (for reindex). */
  clear(): Promise<void>;
  /** Whether the store projects tool calls into traces. */
  deep(): Promise<boolean>;
  setDeep(deep: boolean): Promise<void>;
}

/** What was imported: the Import nodes, and the checksums that let a file be skipped unread. */
export interface ImportLedger {
  /** Records an import (the Import node). */
  recordImport(record: ImportRecord): Promise<void>;
  /**
   * Deletes the Import nodes of `sourceFile` other than `keep` that no conversation hangs from
   * any more: the earlier checksums of a followed log, which a reindex would not make again.
   */
  dropStaleImports(sourceFile: string, keep: string): Promise<void>;
  /** Remembers the zip size and CRC-32 of a file imported before (by an older version). */
  recordFingerprint(checksum: string, size: number, crc32: number): Promise<void>;
  /** Checksums of every export file imported so far. */
  importedChecksums(): Promise<Set<string>>;
  /** Every imported file, with its zip size and CRC-32 where known. */
  importedFiles(): Promise<ImportRecord[]>;
  /** How many conversations the store holds (cheap, unlike `stats`). */
  conversationCount(): Promise<number>;
}

/** Conversations and their messages read back: by id or prefix, as threads, lists and subgraphs. */
export interface ConversationReader {
  /** A conversation by its id (chatgraph's or the platform's). */
  conversation(id: string): Promise<ConversationInfo | undefined>;
  /**
   * Up to `limit` conversations whose chatgraph id or platform id starts with `prefix`, by id
   * (an indexed range, so cheap at any size): what resolves an id a person typed short.
   */
  conversationsByPrefix(prefix: string, limit: number): Promise<ConversationInfo[]>;
  /**
   * Up to `limit` messages whose id (`{conversation}:{message}`), or its message part, starts
   * with `prefix`, by id (indexed, as above).
   */
  messagesByPrefix(prefix: string, limit: number): Promise<MessageRef[]>;
  /** The shown thread in order, or every branch (tree order) with `allBranches`. */
  thread(conversationId: string, options?: { allBranches?: boolean }): Promise<ThreadMessage[]>;
  /** Conversations matching a filter, a page at a time. */
  listConversations(filter: ConversationFilter): Promise<ConversationPage>;
  /** Everything a conversation put in the graph (its nodes and edges, shared nodes they reach included). */
  subgraph(conversationId: string): Promise<GraphBatch | undefined>;
  /** A message with up to `before` messages leading to it and `after` following it. */
  messageContext(messageId: string, before: number, after: number): Promise<ThreadMessage[]>;
  /** The sources conversations came from (cheap, unlike `stats`). */
  sources(): Promise<string[]>;
}

/** Questions over the whole graph: Cypher, keyword search, and counts. */
export interface GraphQueries {
  /**
   * Runs read-only Cypher; writes are refused, and the query is stopped at the limits
   * (the CLI's when none are given).
   */
  cypher(query: string, params?: Record<string, unknown>, limits?: QueryLimits): Promise<Row[]>;
  search(query: SearchQuery): Promise<SearchResult>;
  stats(): Promise<Stats>;
  /** Counts of nodes per label and edges per type (for checks and tests). */
  counts(): Promise<{ nodes: Record<string, number>; edges: Record<string, number> }>;
}

/** The store's vectors, for search by meaning and for the embedder to write (a role of {@link Store}). */
export interface VectorHolder {
  readonly vectors: VectorIndex;
}

/** The bundle's memories as Memory nodes (DERIVED_FROM their source), searchable by words; their writer. */
export interface MemoryHolder {
  readonly memories: MemoryIndex;
}

/** The messages' token counts summed for usage reports, each API response once (reads only). */
export interface UsageHolder {
  readonly usage: UsageReader;
}

/**
 * A graph store: the embedded SQLite store and Neo4j implement it, and pass one contract suite.
 * It is the intersection of its roles, so code asks for the ones it uses: an import's sink
 * (GraphSink), the import ledger, the reader of conversations, questions over the graph, the
 * vectors, the memories and token usage.
 */
export interface Store
  extends
    GraphSink,
    ImportLedger,
    ConversationReader,
    GraphQueries,
    VectorHolder,
    MemoryHolder,
    UsageHolder {
  close(): Promise<void>;
}

export { QueryError } from '../search/query-error.js';

/** A store that cannot be reached or used (wrong address, password, version): one sentence for the user. */
export class StoreConnectionError extends Error {
  override readonly name = 'StoreConnectionError';
}
