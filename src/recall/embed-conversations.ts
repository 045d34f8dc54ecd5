import type { TextChunk } from '../embed/chunk-text.js';
import { textHash } from '../embed/text-hash.js';
import type { VectorIndex, VectorUnit, EmbeddingText } from '../stores/vector-index.js';

/** What the embed stage needs of a model (the local ONNX model and endpoints both give it). */
export interface TextEmbedder {
  readonly model: { id: string; dimensions: number };
  embed(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]>;
}

/** Vectors already made, by model and text hash (so no text is embedded twice). */
export interface EmbeddingCache {
  get(modelId: string, textHashes: readonly string[]): Map<string, Float32Array>;
  put(modelId: string, entries: readonly { textHash: string; vector: Float32Array }[]): void;
}

/** How many conversations and texts an embed run has before it, and a guess at its length. */
export interface EmbedPlan {
  conversations: number;
  texts: number;
  characters: number;
}

/** Where an embed run is. */
export interface EmbedProgress {
  conversations: number;
  conversationsDone: number;
  /** Chunks embedded by the model, and taken from the cache. */
  embedded: number;
  cached: number;
  characters: number;
  charactersDone: number;
}

/** What an embed run did. */
export interface EmbedReport extends EmbedProgress {
  model: string;
  /** True when a previous index of another model was dropped first. */
  replacedModel: string | undefined;
  /** Stopped by its signal before the end (what was done is kept). */
  interrupted: boolean;
}

/** Options of {@link embedConversations}. */
export interface EmbedOptions {
  embedder: TextEmbedder;
  /** Splits a long text into overlapping chunks the model takes whole. */
  chunk: (text: string) => TextChunk[];
  cache?: EmbeddingCache | undefined;
  /** Texts sent to the model at once (sorted by length across conversations). */
  batchSize?: number;
  signal?: AbortSignal | undefined;
  onPlan?: (plan: EmbedPlan) => void;
  onProgress?: (progress: EmbedProgress) => void;
}

interface Job {
  owner: string;
  hash: string;
  units: (Omit<VectorUnit, 'vector'> & { text: string; vector?: Float32Array })[];
  characters: number;
}

function unitsOf(texts: readonly EmbeddingText[], chunk: EmbedOptions['chunk']): Job['units'] {
  return texts.flatMap(({ text, ...rest }) =>
    chunk(text).map((c, i) => ({
      ...rest,
      chunk: i,
      start: c.start,
      end: c.end,
      text: c.text,
      textHash: textHash(c.text),
    })),
  );
}

/**
 * Embeds every conversation whose vectors are missing or stale, newest first: each
 * conversation's texts are chunked, looked up in the cache, the rest embedded in batches, and
 * the conversation's vectors written whole once all its chunks have one. A run stopped by its
 * signal (or killed) keeps every conversation written and every vector cached, so the next run
 * goes on from there. A model other than the index's replaces the index.
 */
export async function embedConversations(
  vectors: VectorIndex,
  options: EmbedOptions,
): Promise<EmbedReport> {
  const { embedder } = options;
  const indexed = await vectors.model();
  let replacedModel: string | undefined;
  if (
    !indexed ||
    indexed.id !== embedder.model.id ||
    indexed.dimensions !== embedder.model.dimensions
  ) {
    if (indexed && indexed.count > 0) replacedModel = indexed.id;
    await vectors.reset(embedder.model);
  }
  const pending = await vectors.pending();
  const jobs: Job[] = [];
  let characters = 0;
  let texts = 0;
  for (const p of pending) {
    const conversationTexts = await vectors.texts(p.owner);
    const size = conversationTexts.reduce((sum, t) => sum + t.text.length, 0);
    texts += conversationTexts.length;
    characters += size;
    jobs.push({ owner: p.owner, hash: p.hash, units: [], characters: size });
  }
  options.onPlan?.({ conversations: jobs.length, texts, characters });
  const progress: EmbedProgress = {
    conversations: jobs.length,
    conversationsDone: 0,
    embedded: 0,
    cached: 0,
    characters,
    charactersDone: 0,
  };
  const interrupted = await runJobs(vectors, jobs, options, progress);
  return { ...progress, model: embedder.model.id, replacedModel, interrupted };
}

async function runJobs(
  vectors: VectorIndex,
  jobs: Job[],
  options: EmbedOptions,
  progress: EmbedProgress,
): Promise<boolean> {
  const batchSize = options.batchSize ?? 32;
  const modelId = options.embedder.model.id;
  let open: Job[] = [];
  let waiting: Job['units'] = [];
  const finish = async (): Promise<void> => {
    const done = open.filter((job) => job.units.every((u) => u.vector));
    open = open.filter((job) => !done.includes(job));
    for (const job of done) {
      const units = job.units.map(({ text: _text, vector, ...u }) => ({
        ...u,
        vector: vector ?? new Float32Array(0),
      }));
      await vectors.write(job.owner, job.hash, units);
      progress.conversationsDone++;
      progress.charactersDone += job.characters;
    }
    options.onProgress?.({ ...progress });
  };
  for (const job of jobs) {
    if (options.signal?.aborted) return true;
    job.units = unitsOf(await vectors.texts(job.owner), options.chunk);
    const cached = options.cache?.get(
      modelId,
      job.units.map((u) => u.textHash),
    );
    for (const unit of job.units) {
      const vector = cached?.get(unit.textHash);
      if (vector) {
        unit.vector = vector;
        progress.cached++;
      } else waiting.push(unit);
    }
    open.push(job);
    while (waiting.length >= batchSize) {
      if (options.signal?.aborted) return true;
      waiting = await embedSome(waiting, batchSize, options, progress);
      await finish();
    }
    if (waiting.length === 0) await finish();
  }
  while (waiting.length > 0) {
    if (options.signal?.aborted) return true;
    waiting = await embedSome(waiting, batchSize, options, progress);
  }
  await finish();
  return false;
}

/** Embeds one batch of the waiting chunks (similar lengths together, so less padding). */
async function embedSome(
  waiting: Job['units'],
  batchSize: number,
  options: EmbedOptions,
  progress: EmbedProgress,
): Promise<Job['units']> {
  const batch = waiting.slice(0, batchSize).sort((a, b) => a.text.length - b.text.length);
  // The signal is checked between batches, not passed in: a batch takes seconds, and one cut
  // mid-way would be work thrown away rather than cached.
  const vectors = await options.embedder.embed(batch.map((u) => u.text));
  const entries: { textHash: string; vector: Float32Array }[] = [];
  batch.forEach((unit, i) => {
    const vector = vectors[i];
    if (!vector || vector.length !== options.embedder.model.dimensions)
      throw new Error(
        `the model ${options.embedder.model.id} gave a vector of ${String(vector?.length ?? 0)} dimensions, not ${String(options.embedder.model.dimensions)}`,
      );
    unit.vector = vector;
    entries.push({ textHash: unit.textHash, vector });
  });
  options.cache?.put(options.embedder.model.id, entries);
  progress.embedded += batch.length;
  return waiting.slice(batchSize);
}
