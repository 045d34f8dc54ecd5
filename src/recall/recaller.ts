import type { Folder } from '../folder/folder.js';
import type { SearchHit, SearchQuery, SearchResult, Store } from '../stores/store.js';
import { openQueryEmbedder, type EmbedStoreOptions, type QueryEmbedder } from './embed-store.js';
import { withMemoryHits } from './memory-hits.js';
import type { TextEmbedder } from './embed-conversations.js';
import { recall, similarMessages } from './recall-search.js';
import { recallConversations, type ConversationResult } from './recall-conversations.js';

/** Search in every mode over one store, the query model opened on first use and kept. */
export interface Recaller {
  search(query: SearchQuery): Promise<SearchResult>;
  /** The same search answered in conversations (one entry each, paged by conversation). */
  searchConversations(query: SearchQuery): Promise<ConversationResult>;
  /** Messages close in meaning to one message. */
  similar(messageId: string, limit: number): Promise<SearchHit[]>;
  /**
   * The model its searches embed with, opened once (none when the store has no vectors or the
   * model does not open): a server lends it to `remember`, which then need not load its own.
   */
  embedder(): Promise<TextEmbedder | undefined>;
  close(): Promise<void>;
}

/**
 * A {@link Recaller} for a store and its data folder. With no mode asked for, a search is hybrid
 * when the store has vectors and their model is installed, else by words, and then the result
 * says why (`notice`). A mode asked for that cannot run is an error naming the fix.
 */
export function createRecaller(
  store: Store,
  folder?: Folder,
  options: EmbedStoreOptions = {},
): Recaller {
  let opened: Promise<QueryEmbedder | undefined> | undefined;
  const embedder = (): Promise<QueryEmbedder | undefined> => {
    const current = (opened ??= openQueryEmbedder(store, folder, options));
    // A model installed later, or vectors made later (a first `chatgraph embed` while a server
    // runs), are picked up by the next search, not never.
    current.then(
      (embedder) => {
        if (!embedder && opened === current) opened = undefined;
      },
      () => {
        if (opened === current) opened = undefined;
      },
    );
    return current;
  };
  const recaller: Recaller = {
    searchConversations(query) {
      return recallConversations(store, (q) => recaller.search(q), query);
    },
    async search(query) {
      let query_ = query;
      let notice: string | undefined;
      let opener: QueryEmbedder | undefined;
      try {
        opener = await embedder();
      } catch (error) {
        if (query.mode === 'semantic' || query.mode === 'hybrid') throw error;
        if (query.mode === undefined)
          notice = `searched by words only: ${error instanceof Error ? error.message : String(error)}`;
        query_ = { ...query, mode: 'keyword' };
      }
      // The query is embedded once, for the messages and the memories both.
      let vector: Promise<Float32Array> | undefined;
      const embedQuery = opener
        ? (text: string): Promise<Float32Array> => (vector ??= opener.embedQuery(text))
        : undefined;
      const result = await recall(store, query_, embedQuery);
      const meaning =
        opener && embedQuery && result.mode !== 'keyword'
          ? { vector: await embedQuery(query_.text), model: opener.model.id }
          : undefined;
      const withMemories = await withMemoryHits(store, query_, result, meaning);
      return notice === undefined ? withMemories : { ...withMemories, notice };
    },
    similar(messageId, limit) {
      return similarMessages(store, messageId, limit);
    },
    embedder() {
      return embedder().catch(() => undefined);
    },
    async close() {
      const current = opened;
      opened = undefined;
      const open = await current?.catch(() => undefined);
      await open?.close();
    },
  };
  return recaller;
}
