import type { SearchHit } from '../search/search-hit.js';

/** What a vector stands for: a message's text, text attached to it, or a conversation's title. */
export type UnitKind = 'message' | 'attachment' | 'title';

/** A piece of a conversation's text to embed, as a store gives it. */
export interface EmbeddingText {
  /** The node the text belongs to: a Message, an Attachment or the Conversation. */
  nodeId: string;
  kind: UnitKind;
  /** The Message node a hit opens (the message itself, or the one carrying the attachment). */
  messageId: string | null;
  text: string;
  source: string;
  role: string | null;
  createdAt: string | null;
}

/** One embedded chunk of an {@link EmbeddingText}. */
export interface VectorUnit extends Omit<EmbeddingText, 'text'> {
  /** Its place among the text's chunks, and where it lies in the text (characters). */
  chunk: number;
  start: number;
  end: number;
  /** sha256 of the chunk's text: the key of the vector cache. */
  textHash: string;
  vector: Float32Array;
}

/** A nearest-neighbour search, with the keyword search's filters. */
export interface VectorQuery {
  vector: Float32Array;
  limit: number;
  offset?: number;
  source?: string | undefined;
  role?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
  /** Leave out this node's own units ("similar messages"). */
  exclude?: string | undefined;
  /**
   * Give each hit its chunk's vector, where the store has it at hand (the embedded store does;
   * Neo4j does not send them back): a search centred by language re-scores hits with them.
   */
  withVectors?: boolean | undefined;
}

/** A unit close in meaning to the query: the best chunk of its node. */
export interface VectorHit {
  nodeId: string;
  kind: UnitKind;
  messageId: string | null;
  owner: string;
  /** Cosine similarity, -1 to 1. */
  similarity: number;
  start: number;
  end: number;
  /** The chunk's vector, when the query asked for it and the store had it. */
  vector?: Float32Array | undefined;
}

/** The model an index holds vectors of. */
export interface IndexedModel {
  id: string;
  dimensions: number;
  /** How many vectors it holds. */
  count: number;
}

/** A conversation whose vectors are missing or were made from an older version of it. */
export interface PendingConversation {
  owner: string;
  /** The content hash its vectors will be recorded with. */
  hash: string;
  /** The hash its vectors were recorded with (null: it has none yet). */
  embedded: string | null;
}

/** What the embed stage writes: the model, the conversations to embed and their texts, vectors. */
export interface VectorWriter {
  model(): Promise<IndexedModel | undefined>;
  /** Drops every vector and records the model the next ones come from. */
  reset(model: { id: string; dimensions: number }): Promise<void>;
  /** Conversations to embed (new, changed, or never embedded), newest first. */
  pending(): Promise<PendingConversation[]>;
  /** The texts of one conversation worth embedding (blank ones are left out). */
  texts(owner: string): Promise<EmbeddingText[]>;
  /** Replaces one conversation's vectors, recording the content hash they were made from. */
  write(owner: string, hash: string, units: readonly VectorUnit[]): Promise<void>;
  /** The text hashes of every vector it holds (what the vector cache must keep). */
  textHashes(): Promise<Set<string>>;
}

/** What search by meaning reads: the nearest units, a message's vector, conversations' means. */
export interface VectorReader {
  /** The units nearest a vector, best chunk per node, filters applied. */
  search(query: VectorQuery): Promise<VectorHit[]>;
  /** The stored vector of a message's first chunk (for "similar messages"). */
  vectorOf(nodeId: string): Promise<Float32Array | undefined>;
  /** Search hits (conversation, title, snippet) for vector hits, in the same order. */
  describe(hits: readonly VectorHit[]): Promise<SearchHit[]>;
  /** The latest `limit` embedded conversations, each with the mean of its vectors (topic map). */
  conversationVectors(limit: number): Promise<ConversationVector[]>;
}

/**
 * The vectors of a store: one model at a time, each conversation's vectors replaced whole and
 * dropped with it, so a deleted or changed message leaves no vector behind.
 */
export interface VectorIndex extends VectorWriter, VectorReader {}

/** A conversation's place in meaning: the mean of its vectors, with what names it. */
export interface ConversationVector {
  owner: string;
  title: string;
  source: string;
  vector: Float32Array;
}

/** A vector index that no longer matches the model asked for. */
export class VectorModelMismatchError extends Error {
  override readonly name = 'VectorModelMismatchError';
}
