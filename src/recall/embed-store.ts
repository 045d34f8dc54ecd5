import { existsSync } from 'node:fs';
import { tokenizerChunker, type TextChunk } from '../embed/chunk-text.js';
import type { Embedder } from '../embed/embedder.js';
import { openEmbedder, type OpenEmbedderOptions } from '../embed/open-embedder.js';
import type { VectorCache } from '../embed/vector-cache.js';
import type { GraphSink, MemoryHolder, Store, VectorHolder } from '../stores/store.js';
import { VectorModelMismatchError } from '../stores/vector-index.js';
import {
  embedConversations,
  type EmbedPlan,
  type EmbedProgress,
  type EmbedReport,
} from './embed-conversations.js';
import { readEmbeddingSettings, writeEmbeddingSettings } from './embedding-settings.js';
import { embedMemories } from './embed-memories.js';
import { syncMemories } from './sync-memories.js';
import { waitingOf, type Folder } from '../folder/folder.js';
import type { LockHolder } from '../folder/write-lock.js';
import { ModelNotInstalledError } from '../embed/embed-errors.js';
import { MODEL_CATALOG } from '../embed/model-catalog.js';
import { modelFolder, readManifest, resolveModelDir } from '../embed/model-folder.js';
import { historyLanguages } from './history-languages.js';
import {
  chooseModel,
  keptModelNote,
  missingMultilingualMessage,
  type ModelChoice,
} from './model-choice.js';
import type { QueryEmbedding } from './recall-search.js';
import { encodeVectors, makeNoise, meaningTest, readSavedNoise } from './meaning-noise.js';
import type { MeaningTest } from '../search/meaning-cutoff.js';
import { centredCutoffOf, meaningCutoffOf } from '../embed/model-catalog.js';
import { LETTER_SHUFFLES, letterReferenceTexts, type LetterReference } from './letter-noise.js';
import {
  centringBy,
  decodeCentres,
  encodeCentres,
  measureCentres,
  type CentredQuery,
} from './language-centring.js';
import { preloadLanguageDetector } from '../search/language-detection.js';

/** Chunks overlap by this many tokens, so a sentence cut at a boundary is whole in one of them. */
const OVERLAP_TOKENS = 32;

/** Options of {@link embedStore}. */
export interface EmbedStoreOptions extends Omit<OpenEmbedderOptions, 'modelDir'> {
  modelDir?: string | undefined;
  signal?: AbortSignal | undefined;
  onPlan?: (plan: EmbedPlan, model: Embedder['model']) => void;
  onProgress?: (progress: EmbedProgress) => void;
  /** Called once when another writer holds the data folder and this one waits. */
  onWait?: ((holder: LockHolder) => void) | undefined;
  /**
   * Called with the model `embed` chose by the history's languages (no model named, nothing
   * embedded yet), or with a note when the folder keeps a model the languages would not choose;
   * the languages are only looked at when this is given or nothing was embedded yet.
   */
  onModelChoice?: (line: string) => void;
}

/** The model options a data folder's vectors call for: those given, else those it was embedded with. */
export function modelOptions(
  folder: Folder | undefined,
  options: EmbedStoreOptions,
): OpenEmbedderOptions {
  const given = options.model !== undefined || options.endpoint !== undefined;
  const saved = given || folder === undefined ? {} : readEmbeddingSettings(folder);
  const model = options.model ?? saved.model;
  const endpoint = options.endpoint ?? saved.endpoint;
  return {
    ...(model !== undefined ? { model } : {}),
    ...(endpoint !== undefined ? { endpoint } : {}),
    ...(options.allowRemote !== undefined ? { allowRemote: options.allowRemote } : {}),
    ...(options.redact !== undefined ? { redact: options.redact } : {}),
    ...(options.modelDir !== undefined ? { modelDir: options.modelDir } : {}),
    ...(options.workers !== undefined ? { workers: options.workers } : {}),
    ...(options.onWarning ? { onWarning: options.onWarning } : {}),
  };
}

/** Splits texts so that each chunk fits the model (its token limit, a little overlap). */
export function chunkerFor(embedder: Embedder): (text: string) => TextChunk[] {
  const maxTokens = Math.max(16, embedder.model.maxTokens - 2);
  return tokenizerChunker(
    { maxTokens, overlapTokens: Math.min(OVERLAP_TOKENS, maxTokens >> 2) },
    (t) => embedder.countTokens(t),
  );
}

/**
 * Embeds what the store has not embedded yet with the data folder's model (or the one asked
 * for, which replaces the index when it differs), caching every vector in the data folder.
 * `kept`: a store its caller keeps open (a follower's), written through rather than another.
 */
export async function embedStore(
  folder: Folder,
  options: EmbedStoreOptions = {},
  kept?: Store,
): Promise<EmbedReport & { source: string; memories: { memories: number; embedded: number } }> {
  // Vectors are written into the store: one writer at a time, as for imports.
  return folder.write(async (writing) => embedLocked(folder, await writing.store(), options), {
    ...waitingOf(options),
    kept,
  });
}

async function embedLocked(
  folder: Folder,
  store: Pick<GraphSink, 'upsert'> & VectorHolder & MemoryHolder,
  options: EmbedStoreOptions,
): Promise<EmbedReport & { source: string; memories: { memories: number; embedded: number } }> {
  const chosen = await chooseByLanguages(store, folder, options);
  // The English model stays unnamed, as before: the folder records the source it came from.
  const open = modelOptions(
    folder,
    chosen?.multilingual ? { ...options, model: chosen.model } : options,
  );
  const embedder = await openEmbedder(open);
  const cache = await openVectorCache(folder);
  try {
    const report = await embedConversations(store.vectors, {
      embedder,
      chunk: chunkerFor(embedder),
      cache,
      signal: options.signal,
      onPlan: (plan) => options.onPlan?.(plan, embedder.model),
      ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    });
    let memories = { memories: 0, embedded: 0 };
    if (!report.interrupted) {
      const made = await embedMemories(folder.bundle, embedder, cache);
      memories = { memories: made.memories, embedded: made.embedded };
      // The store searches memories by meaning with the vectors just written to the bundle.
      await syncMemories(store, folder);
      // Everything is embedded now: vectors of texts that are gone (deleted, changed,
      // redacted) leave the cache too.
      const keep = await store.vectors.textHashes();
      for (const hash of made.hashes) keep.add(hash);
      cache.keepOnly(embedder.model.id, keep);
    }
    const saved = readEmbeddingSettings(folder);
    const model = open.model ?? embedder.model.id;
    // The reason stays with the index while the model does.
    const why = chosen
      ? { reason: chosen.reason, languages: chosen.languages }
      : saved.model === model && saved.endpoint === open.endpoint
        ? { reason: saved.reason, languages: saved.languages }
        : {};
    // Made once per model: each query's noise level is then read, not embedded again.
    const noise =
      saved.noise?.model === embedder.model.id
        ? saved.noise
        : {
            model: embedder.model.id,
            vectors: encodeVectors(await makeNoise((t) => embedder.embed(t))),
          };
    // The language means, for a model that searches centred by language: the languages of
    // conversations already told are kept, only the new ones are read.
    const centring = centredCutoffOf(embedder.model.id)
      ? encodeCentres(
          await measureCentres(
            store.vectors,
            embedder.model.id,
            decodeCentres(saved.centring, embedder.model.id, embedder.model.dimensions),
          ),
        )
      : undefined;
    await writeEmbeddingSettings(folder, {
      model,
      endpoint: open.endpoint,
      ...why,
      noise,
      ...(centring ? { centring } : {}),
    });
    return { ...report, source: embedder.model.source, memories };
  } finally {
    cache.close();
    await embedder.close();
  }
}

/** True when one of the catalog model's sources is installed (has a manifest). */
function catalogModelInstalled(name: string, modelDir: string | undefined): boolean {
  const entry = MODEL_CATALOG.find((model) => model.name === name);
  const dir = resolveModelDir(modelDir);
  return (
    entry?.sources.some((source) => readManifest(modelFolder(dir, source.id)) !== undefined) ??
    false
  );
}

/**
 * With no model named and nothing embedded yet, the model the history's languages call for (a
 * {@link ModelNotInstalledError} naming the fetch when it is the multilingual one and missing);
 * undefined when the folder keeps its model (with a note when the languages call for another).
 */
async function chooseByLanguages(
  store: VectorHolder,
  folder: Folder,
  options: EmbedStoreOptions,
): Promise<(ModelChoice & { languages: Record<string, number> }) | undefined> {
  if (options.model !== undefined || options.endpoint !== undefined) return undefined;
  const saved = readEmbeddingSettings(folder);
  const indexed = await store.vectors.model();
  const kept =
    saved.endpoint ?? saved.model ?? (indexed && indexed.count > 0 ? indexed.id : undefined);
  if (kept !== undefined) {
    if (!options.onModelChoice || saved.endpoint !== undefined) return undefined;
    const note = keptModelNote(kept, await historyLanguages(store.vectors));
    if (note) options.onModelChoice(note);
    return undefined;
  }
  const languages = await historyLanguages(store.vectors);
  if (languages.sampled === 0) return undefined;
  const first = chooseModel(languages);
  // The first installed of the models that read the history; none: the fetch to run.
  const model = first.multilingual
    ? [first.model, ...first.fallbacks].find((m) => catalogModelInstalled(m, options.modelDir))
    : first.model;
  if (model === undefined) throw new ModelNotInstalledError(missingMultilingualMessage(first));
  const choice = { ...first, model };
  options.onModelChoice?.(`embedding with ${choice.model}: ${choice.reason}`);
  return { ...choice, languages: languages.shares };
}

/**
 * Forgets the cached vectors of texts the store no longer holds (after a conversation is
 * deleted), so a deleted text leaves no vector in the data folder; memories' vectors are made
 * again from the cache's misses at the next embed.
 */
export async function pruneVectorCache(store: VectorHolder, folder: Folder): Promise<number> {
  const model = await store.vectors.model();
  if (!model || !existsSync(folder.layout.vectorCache)) return 0;
  const cache = await openVectorCache(folder);
  try {
    return cache.keepOnly(model.id, await store.vectors.textHashes());
  } finally {
    cache.close();
  }
}

/** A way to embed queries for a store's vectors, and to let go of the model afterwards. */
export interface QueryEmbedder {
  embedQuery: QueryEmbedding;
  /** Texts embedded with the same open model (a memory written while a server runs). */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  model: Embedder['model'];
  /**
   * How a vector's matches are judged: its noise level (against the model's vectors of texts
   * that mean nothing, saved by `embed` or made once here) and the model's calibrated cutoff.
   */
  meaningJudge(): Promise<(vector: Float32Array) => MeaningTest>;
  /**
   * For a model that searches centred by language: the query centred on its language, and its
   * hits' test in centred space; undefined for the others.
   */
  centre(text: string, vector: Float32Array): Promise<CentredSearch | undefined>;
  /**
   * The vectors a query's hits are also judged against (shuffles of its letters, placeholder
   * text: `letter-noise.ts`) with the model's margin over them; undefined for a model with none.
   */
  letters(text: string): Promise<LetterReference | undefined>;
  close(): Promise<void>;
}

/** A query centred by language, and how its hits are judged in centred space. */
export interface CentredSearch {
  centred: CentredQuery;
  test: MeaningTest;
  /** The least lead over the plain noise level that shows a hit by its plain similarity. */
  plainMargin: number;
  /** How much of its language pair's term a hit's plain similarity loses when ranked. */
  pairWeight: number;
}

/**
 * The letter test's reference for a query (`letter-noise.ts`): its shuffles and the placeholder
 * texts embedded in one batch, with the model's calibration; none for a model without one.
 */
async function lettersOf(
  embedder: Pick<Embedder, 'model' | 'embed'>,
  text: string,
): Promise<LetterReference | undefined> {
  const {
    letters: calibrated,
    keep,
    lettersKeep,
    placeholderLead,
  } = meaningCutoffOf(embedder.model.id);
  // For the recall bench, which measures other margins (`off`: none).
  const asked = process.env.CHATGRAPH_LETTER_MARGIN;
  const letters = asked === undefined ? calibrated : asked === 'off' ? undefined : Number(asked);
  if (letters === undefined || !Number.isFinite(letters)) return undefined;
  const vectors = await embedder.embed(letterReferenceTexts(text));
  return {
    vectors: vectors.slice(0, LETTER_SHUFFLES),
    placeholders: vectors.slice(LETTER_SHUFFLES),
    placeholderLead,
    margin: letters,
    keep: lettersKeep ?? keep,
  };
}

/**
 * Opens the model the store's vectors (its messages', else its memories') were made with, for
 * queries; undefined when the store has no vectors. A model that is not installed, or not the index's, is an error naming the fix.
 */
export async function openQueryEmbedder(
  store: VectorHolder & MemoryHolder,
  folder: Folder | undefined,
  options: EmbedStoreOptions = {},
): Promise<QueryEmbedder | undefined> {
  const messages = await store.vectors.model();
  // After a reindex only the memories' vectors are back (from the bundle): they are searched.
  const indexed = messages && messages.count > 0 ? messages : await store.memories.vectorModel();
  if (!indexed || indexed.count === 0) return undefined;
  const open = modelOptions(folder, options);
  // A query is one text, one batch: workers would load the model again for nothing.
  const embedder = await openEmbedder({ model: indexed.id, ...open, workers: 1 });
  if (embedder.model.id !== indexed.id || embedder.model.dimensions !== indexed.dimensions) {
    await embedder.close();
    throw new VectorModelMismatchError(
      `the vectors were made with ${indexed.id} (${String(indexed.dimensions)} dimensions), but ${embedder.model.id} (${String(embedder.model.dimensions)}) was opened: search with that model, or run chatgraph embed --model ${embedder.model.id} to re-embed`,
    );
  }
  let noise: Promise<Float32Array[]> | undefined;
  const noiseVectors = (): Promise<Float32Array[]> =>
    (noise ??= Promise.resolve(
      readSavedNoise(folder, embedder.model.id, embedder.model.dimensions),
    ).then((saved) => saved ?? makeNoise((texts) => embedder.embed(texts))));
  const centredCutoff = centredCutoffOf(embedder.model.id);
  // The folder's language means, as `embed` kept them. A folder embedded before centring
  // searches the plain way until its next `embed` stores them: measuring them here would cost
  // every search process seconds (8.3 s at 64,000 messages) and they could not be kept, a
  // search being no writer. A store searched without a folder has them measured once a process.
  let centring: Promise<ReturnType<typeof centringBy> | undefined> | undefined;
  const centringOf = (): Promise<ReturnType<typeof centringBy> | undefined> =>
    (centring ??= (async () => {
      const kept = folder
        ? decodeCentres(
            readEmbeddingSettings(folder).centring,
            embedder.model.id,
            embedder.model.dimensions,
          )
        : undefined;
      if (folder && !kept) return undefined;
      await preloadLanguageDetector();
      return centringBy(kept ?? (await measureCentres(store.vectors, embedder.model.id)));
    })());
  return {
    model: embedder.model,
    centre: async (text, vector) => {
      if (!centredCutoff || !messages || messages.count === 0) return undefined;
      const centring = await centringOf();
      if (!centring) return undefined;
      const centred = centring.query(text, vector);
      const { plainMargin, pairWeight, ...cutoff } = centredCutoff;
      return {
        centred,
        test: { noise: centred.noise(await noiseVectors()), ...cutoff },
        plainMargin,
        pairWeight,
      };
    },
    letters: (text) => lettersOf(embedder, text),
    meaningJudge: async () => {
      const vectors = await noiseVectors();
      return (vector) => meaningTest(vector, vectors, embedder.model.id);
    },
    embedQuery: async (text) => {
      const [vector] = await embedder.embed([text]);
      if (!vector) throw new Error('the model gave no vector for the query');
      return vector;
    },
    embed: (texts) => embedder.embed(texts),
    close: () => embedder.close(),
  };
}

/** The folder's vector cache (SQLite), its code loaded when first used rather than with chatgraph. */
export async function openVectorCache(folder: Folder): Promise<VectorCache> {
  const { VectorCache: Cache } = await import('../embed/vector-cache.js');
  return Cache.open(folder.layout.vectorCache, folder.sqliteKey);
}
