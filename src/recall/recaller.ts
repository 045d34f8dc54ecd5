import type { Folder } from '../folder/folder.js';
import { checkQueryText } from '../search/search-terms.js';
import type { SearchHit, SearchQuery, SearchResult } from '../stores/store.js';
import { openQueryEmbedder, type EmbedStoreOptions, type QueryEmbedder } from './embed-store.js';
import { withMemoryHits } from './memory-hits.js';
import type { RecallStore } from './recall-search.js';
import { queryLanguageNotice } from './query-language.js';
import { leftToWords, nothingByMeaning, outsideModelLanguage } from './outside-language.js';
import { NO_TEST, type MeaningTest } from '../search/meaning-cutoff.js';
import type { TextEmbedder } from './embed-conversations.js';
import { recall, similarMessages } from './recall-search.js';
import {
  recallConversations,
  type ConversationOptions,
  type ConversationResult,
} from './recall-conversations.js';

/** Search in every mode over one store, the query model opened on first use and kept. */
export interface Recaller {
  search(query: SearchQuery): Promise<SearchResult>;
  /** The same search answered in conversations (one entry each, paged by conversation). */
  searchConversations(
    query: SearchQuery,
    options?: ConversationOptions,
  ): Promise<ConversationResult>;
  /** Messages close in meaning to one message. */
  similar(messageId: string, limit: number): Promise<SearchHit[]>;
  /**
   * The model its searches embed with, opened once (none when the store has no vectors or the
   * model does not open): a server lends it to `remember`, which then need not load its own.
   */
  embedder(): Promise<TextEmbedder | undefined>;
  close(): Promise<void>;
}

// How a search's or a neighbour's matches are judged with the opened model (none without one);
// a query's `text` in a language the model does not read is answered by its words only.
function judgeWith(
  opener: QueryEmbedder | undefined,
  text?: string,
): ((vector: Float32Array) => Promise<MeaningTest>) | undefined {
  if (!opener) return undefined;
  let outside: Promise<boolean> | undefined;
  return async (vector) => {
    const test = (await opener.meaningJudge())(vector);
    if (text === undefined) return test;
    outside ??= outsideModelLanguage(text, opener.model.id);
    return (await outside) ? nothingByMeaning(test) : test;
  };
}

/** How a {@link Recaller} answers, beside the model it embeds with. */
export interface RecallerOptions extends EmbedStoreOptions {
  /**
   * When a search by words matches nothing, open the model to offer what is nearest in meaning
   * (the default: a server opens it once for its life). Off for a one-shot command (the CLI's
   * `search`, issue 46), where opening it cost 250 MB and most of a second for the one query: a
   * search by words then never loads the model, and says a search by meaning may find more.
   */
  nearestInMeaning?: boolean;
}

/** Said when nothing has the words and the model is not opened to look by meaning instead. */
export const BY_MEANING_NOTICE =
  'no message has these words; a search by meaning (mode semantic) may find what is near';

/**
 * A search by words opens no model: only when nothing matches is it opened, to offer what is
 * near in meaning (a model that does not open then offers nothing, as before), and not even
 * then when `nearest` is off.
 */
async function searchByWords(
  store: RecallStore,
  query: SearchQuery,
  embedder: () => Promise<QueryEmbedder | undefined>,
  nearest: boolean,
): Promise<SearchResult> {
  if (!nearest) {
    const result = await withMemoryHits(store, query, await recall(store, query));
    // Said without asking whether the folder has vectors: counting them cost 0.15 s at 64k
    // messages (a search by meaning names `chatgraph embed` when there are none).
    return result.hits.length > 0 || (query.offset ?? 0) > 0 || result.notice !== undefined
      ? result
      : { ...result, notice: BY_MEANING_NOTICE };
  }
  const opener = (): Promise<QueryEmbedder | undefined> => embedder().catch(() => undefined);
  const embedQuery = async (text: string): Promise<Float32Array> => {
    const open = await opener();
    if (!open) throw new Error('no model to embed the query with');
    return open.embedQuery(text);
  };
  const judge = async (vector: Float32Array): Promise<MeaningTest> => {
    const open = await opener();
    return (await judgeWith(open, query.text)?.(vector)) ?? NO_TEST;
  };
  const centre = async (text: string, vector: Float32Array) =>
    (await opener())?.centre(text, vector);
  const letters = async (text: string) => (await opener())?.letters(text);
  return withMemoryHits(
    store,
    query,
    await recall(store, query, embedQuery, judge, centre, letters),
  );
}

/**
 * A {@link Recaller} for a store and its data folder. With no mode asked for, a search is hybrid
 * when the store has vectors and their model is installed, else by words, and then the result
 * says why (`notice`). A mode asked for that cannot run is an error naming the fix.
 */
export function createRecaller(
  store: RecallStore,
  folder?: Folder,
  { nearestInMeaning = true, ...options }: RecallerOptions = {},
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
    searchConversations(query, options) {
      checkQueryText(query.text);
      return recallConversations(store, (q) => recaller.search(q), query, options);
    },
    async search(query) {
      // Before anything reads it (the embedding, the stemmer): a search's length is bounded.
      checkQueryText(query.text);
      if (query.mode === 'keyword') return searchByWords(store, query, embedder, nearestInMeaning);
      let query_ = query;
      let notice: string | undefined;
      let opener: QueryEmbedder | undefined;
      try {
        opener = await embedder();
      } catch (error) {
        if (query.mode !== undefined) throw error;
        notice = `searched by words only: ${error instanceof Error ? error.message : String(error)}`;
        query_ = { ...query, mode: 'keyword' };
      }
      // The query is embedded once, for the messages and the memories both.
      let vector: Promise<Float32Array> | undefined;
      const embedQuery = opener
        ? (text: string): Promise<Float32Array> => (vector ??= opener.embedQuery(text))
        : undefined;
      // One judge for the messages and the memories: the question's language is told once.
      const judge = judgeWith(opener, query_.text);
      const result = await recall(
        store,
        query_,
        embedQuery,
        judge,
        opener ? (text, vector) => opener.centre(text, vector) : undefined,
        opener ? (text) => opener.letters(text) : undefined,
      );
      const meaning =
        opener && embedQuery && result.mode !== 'keyword'
          ? await (async () => {
              const vector = await embedQuery(query_.text);
              const test = (await judge?.(vector)) ?? NO_TEST;
              return { vector, model: opener.model.id, test };
            })()
          : undefined;
      const withMemories = await withMemoryHits(store, query_, result, meaning);
      // Said once, beside the answer: the model may not understand the question's language.
      // (`nothingByMeaning` leaves a question in a language the model does not read to its words.)
      notice ??= meaning
        ? await queryLanguageNotice(query_.text, meaning.model, leftToWords(meaning.test))
        : undefined;
      return notice === undefined ? withMemories : { ...withMemories, notice };
    },
    async similar(messageId, limit) {
      // Judged by the model's noise texts when the model opens; all shown when it does not.
      const opener = await embedder().catch(() => undefined);
      return similarMessages(store, messageId, limit, judgeWith(opener));
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
