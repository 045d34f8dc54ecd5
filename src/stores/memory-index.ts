import type { EdgeKind } from '../graph/schema.js';
import type { Memory, Relation, RelationType } from '../model/pam.js';

/** The edge kind a PAM relation is between Memory nodes (`derived_from` reads as DERIVED_FROM). */
export const RELATION_EDGES = {
  supersedes: 'SUPERSEDES',
  supports: 'SUPPORTS',
  contradicts: 'CONTRADICTS',
  extends: 'EXTENDS',
  related_to: 'RELATED_TO',
  derived_from: 'DERIVED_FROM_MEMORY',
} as const satisfies Record<RelationType, EdgeKind>;

/** Every edge kind of a relation. */
export const RELATION_EDGE_KINDS: readonly EdgeKind[] = Object.values(RELATION_EDGES);

/** An active memory matching a search by words. */
export interface MemoryMatch {
  id: string;
  /** Higher is better (BM25 on SQLite, Lucene's score on Neo4j). */
  score: number;
  /** The matching passage, matched words between MATCH_START and MATCH_END. */
  snippet: string;
  type: string;
  tags: string[];
  /** PAM `provenance.platform`. */
  source: string;
  createdAt: string;
  /** The Conversation and Message node ids it came from (null when it names none). */
  conversationId: string | null;
  messageId: string | null;
}

/** A memory's vector, as the bundle's `embeddings.json` holds it (PAM's file for them). */
export interface MemoryVector {
  memoryId: string;
  /** The model that made it: a search by meaning compares only vectors of its query's model. */
  model: string;
  vector: Float32Array;
}

/** The model of the memories' vectors a store holds, and how many it holds. */
export interface MemoryVectorModel {
  id: string;
  dimensions: number;
  count: number;
}

/** A Memory node's properties as both stores read them back, for a {@link MemoryMatch}. */
export function matchOf(
  id: string,
  score: number,
  snippet: string,
  row: Record<string, unknown>,
): MemoryMatch {
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  const conversation = text(row.conversation_ref);
  const message = text(row.message_ref);
  return {
    id,
    score,
    snippet,
    type: text(row.type),
    tags: text(row.tags).split(',').filter(Boolean),
    source: text(row.source),
    createdAt: text(row.created_at),
    conversationId: conversation || null,
    messageId: conversation && message ? `${conversation}:${message}` : null,
  };
}

/**
 * A store's Memory nodes: the bundle's memories projected into the graph, each with
 * `DERIVED_FROM` to the message (or conversation) it came from when the store holds it, and
 * searchable by words. The bundle is the record: the store is given all of them at once.
 */
export interface MemoryIndex {
  /**
   * Makes the Memory nodes and their edges exactly these memories (a memory gone from the
   * list goes from the graph) and these relations between them (an edge each, see
   * {@link RELATION_EDGES}), and indexes their words and these vectors (those given: none
   * when none are; a vector of a memory not in the list is left out).
   */
  replace(
    memories: readonly Memory[],
    vectors?: readonly MemoryVector[],
    relations?: readonly Relation[],
  ): Promise<void>;
  /**
   * Makes the Memory nodes, edges and words of these memories what they are now, leaving every
   * other memory alone (one change costs the same however many there are); these memories lose
   * the vectors not given, and each vector given is indexed when its memory is in the store.
   * The relations given are added (an edge each between Memory nodes the store holds); no
   * edge of a relation is removed, as no relation ever is.
   */
  upsert(
    memories: readonly Memory[],
    vectors?: readonly MemoryVector[],
    relations?: readonly Relation[],
  ): Promise<void>;
  /**
   * Memories matching a search (the keyword syntax of `search`), best first: active ones, or
   * every status with `all` (the history).
   */
  search(text: string, limit: number, options?: { all?: boolean }): Promise<MemoryMatch[]>;
  /**
   * Active memories nearest a query vector of `model`, best first, `score` their cosine
   * similarity (-1 to 1); memories without a vector of that model are not among them.
   */
  searchByMeaning(vector: Float32Array, model: string, limit: number): Promise<MemoryMatch[]>;
  /** The model of the memories' vectors (the one most are of, if ever two), or none. */
  vectorModel(): Promise<MemoryVectorModel | undefined>;
}

/** The Memory node of a PAM memory: its properties, and the node its DERIVED_FROM reaches. */
export function memoryNode(memory: Memory): {
  properties: Record<string, string | null>;
  derivedFrom: { kind: 'message' | 'conversation'; id: string; owner: string } | undefined;
} {
  const conversation = memory.provenance.conversation_ref;
  const message = memory.provenance.message_ref;
  return {
    properties: {
      type: memory.type,
      status: memory.status,
      content: memory.content,
      summary: memory.summary ?? null,
      tags: memory.tags.join(','),
      source: memory.provenance.platform,
      conversation_ref: conversation ?? null,
      message_ref: message ?? null,
      extraction_method: memory.provenance.extraction_method,
      created_at: memory.temporal.created_at,
      updated_at: memory.temporal.updated_at ?? null,
      superseded_by: memory.temporal.superseded_by ?? null,
    },
    // A Conversation node's id is its PAM id, and a Message node's `{conversation}:{message}`.
    derivedFrom:
      conversation === undefined
        ? undefined
        : message !== undefined
          ? { kind: 'message', id: `${conversation}:${message}`, owner: conversation }
          : { kind: 'conversation', id: conversation, owner: conversation },
  };
}

/** The words a memory is found by: its content, summary and tags. */
export function memoryText(memory: Memory): string {
  return [memory.content, memory.summary ?? '', memory.tags.join(' ')].join('\n');
}
