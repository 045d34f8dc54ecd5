import type {
  ConversationReader,
  GraphQueries,
  ImportLedger,
  UsageHolder,
  VectorHolder,
} from './store.js';
import type { UsageReader } from './usage-reader.js';
import type { IndexedModel } from './vector-index.js';

/**
 * A store as the shells read it: conversations (by id, lists, threads, subgraphs), questions
 * over the graph (Cypher, search by words, counts), and what is indexed. No write path: no
 * import, delete or clear, no vectors or memories to write. A shell gets one from its data
 * folder (`DataFolder.reader`), never the store itself.
 */
export interface StoreReader extends ConversationReader, GraphQueries {
  /** How many conversations the store holds (cheap, unlike `stats`). */
  conversationCount(): Promise<number>;
  /** The model the store's message vectors were made with; none before the first embed. */
  vectorModel(): Promise<IndexedModel | undefined>;
  /** The messages' token counts summed for usage reports (reads only). */
  readonly usage: UsageReader;
}

/**
 * The read-only view of a store: an object of its own that holds the reads alone, so a shell
 * cannot reach a write path even by a cast.
 */
export function readerOf(
  store: ConversationReader &
    GraphQueries &
    Pick<ImportLedger, 'conversationCount'> &
    VectorHolder &
    UsageHolder,
): StoreReader {
  return {
    conversation: (id) => store.conversation(id),
    conversationsByPrefix: (prefix, limit) => store.conversationsByPrefix(prefix, limit),
    messagesByPrefix: (prefix, limit) => store.messagesByPrefix(prefix, limit),
    thread: (id, options) => store.thread(id, options),
    listConversations: (filter) => store.listConversations(filter),
    subgraph: (id) => store.subgraph(id),
    messageContext: (id, before, after) => store.messageContext(id, before, after),
    sources: () => store.sources(),
    cypher: (query, params, limits) => store.cypher(query, params, limits),
    search: (query) => store.search(query),
    stats: () => store.stats(),
    counts: () => store.counts(),
    conversationCount: () => store.conversationCount(),
    vectorModel: () => store.vectors.model(),
    usage: store.usage,
  };
}
