import type { TextChunk } from '../embed/chunk-text.js';
import type { VectorIndex } from '../stores/vector-index.js';
import {
  embedCostOf,
  planChunks,
  spreadOver,
  planGists,
  unitsOf,
  type EmbedCost,
  type EmbedPass,
  type EmbedPlan,
  type Job,
  type KnownVectors,
  type PendingUnit,
  type PlannedPass,
} from './embed-plan.js';

export type { EmbedPlan } from './embed-plan.js';

/** What the embed stage needs of a model (the local ONNX model and endpoints both give it). */
export interface TextEmbedder {
  readonly model: { id: string; dimensions: number };
  /** Sessions embedding at once, a core each (a local model's pool); absent for endpoints. */
  readonly workers?: number;
  embed(texts: readonly string[], options?: { signal?: AbortSignal }): Promise<Float32Array[]>;
}

/** Vectors already made, by model and text hash (so no text is embedded twice). */
export interface EmbeddingCache {
  get(modelId: string, textHashes: readonly string[]): Map<string, Float32Array>;
  put(modelId: string, entries: readonly { textHash: string; vector: Float32Array }[]): void;
}

/** Where an embed run is (in its pass: one vector a conversation, then every chunk). */
export interface EmbedProgress {
  pass: EmbedPass;
  conversations: number;
  conversationsDone: number;
  /** Chunks embedded by the model, and taken from the cache (both passes). */
  embedded: number;
  cached: number;
  characters: number;
  charactersDone: number;
  /** Wall seconds the passes have taken so far (the model's runs and the vectors' writes). */
  seconds: number;
}

/** What an embed run did. */
export interface EmbedReport extends EmbedProgress {
  model: string;
  /** Conversations the first pass gave their one vector (findable by meaning from then on). */
  gists: number;
  /** True when a previous index of another model was dropped first. */
  replacedModel: string | undefined;
  /** Stopped by its signal before the end (what was done is kept). */
  interrupted: boolean;
  /** The model's sessions, a core each (see {@link TextEmbedder.workers}). */
  workers: number | undefined;
}

/** Options of {@link embedConversations}. */
export interface EmbedOptions {
  embedder: TextEmbedder;
  /** Splits a long text into overlapping chunks the model takes whole. */
  chunk: (text: string) => TextChunk[];
  cache?: EmbeddingCache | undefined;
  /** Texts sent to the model at once (sorted by length across conversations). */
  batchSize?: number;
  /** What the model takes a token (the plan's estimate); by default, the model's measured cost. */
  cost?: EmbedCost | undefined;
  signal?: AbortSignal | undefined;
  /** Called before each pass. */
  onPlan?: (plan: EmbedPlan) => void;
  onProgress?: (progress: EmbedProgress) => void;
}

/**
 * Embeds every conversation whose vectors are missing or stale, newest first, in two passes.
 * First one vector a conversation that has none (its gist: title, first questions, the start of
 * long answers), so search by meaning finds every conversation soon; then every chunk of every
 * text, each conversation's vectors written whole once all its chunks have one. A run stopped by
 * its signal (or killed) keeps every conversation written and every vector cached, so the next
 * run goes on from there. A model other than the index's replaces the index.
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
  const cost = spreadOver(options.cost ?? embedCostOf(embedder.model.id), embedder.workers ?? 1);
  // Vectors this run made: the second pass finds the gists here even with no cache.
  const made = new Map<string, Float32Array>();
  const known: KnownVectors = (hashes) => {
    const found = new Map(options.cache?.get(embedder.model.id, hashes));
    for (const hash of hashes) {
      const vector = made.get(hash);
      if (vector) found.set(hash, vector);
    }
    return found;
  };
  const run = new Runner(vectors, options, known, made);
  const first = await planGists(vectors, pending, options.chunk, known, cost);
  const report = (interrupted: boolean): EmbedReport => ({
    ...run.progress,
    model: embedder.model.id,
    gists: run.gists,
    replacedModel,
    interrupted,
    workers: embedder.workers,
  });
  if (first.jobs.length > 0) {
    options.onPlan?.(withWorkers(first.plan, embedder));
    const stopped = await run.pass('conversations', first);
    run.gists = run.progress.conversationsDone;
    if (stopped) return report(true);
  }
  const second = await planChunks(vectors, pending, options.chunk, known, cost);
  options.onPlan?.(withWorkers(second.plan, embedder));
  return report(await run.pass('chunks', second));
}

function withWorkers(plan: EmbedPlan, embedder: TextEmbedder): EmbedPlan {
  return embedder.workers !== undefined ? { ...plan, workers: embedder.workers } : plan;
}

/** Runs the passes' jobs: batches across conversations, each conversation written whole. */
class Runner {
  readonly progress: EmbedProgress = {
    pass: 'conversations',
    conversations: 0,
    conversationsDone: 0,
    embedded: 0,
    cached: 0,
    characters: 0,
    charactersDone: 0,
    seconds: 0,
  };
  gists = 0;
  /** Seconds of the passes before this one, and when this one began. */
  private before = 0;
  private began = performance.now();
  private open: Job[] = [];
  private waiting: PendingUnit[] = [];
  /** Units of the same text as one waiting: they take its vector (a text is embedded once). */
  private readonly twins = new Map<string, PendingUnit[]>();
  /** Texts the pass holds more than once: their vectors are kept for the later ones. */
  private repeats: ReadonlySet<string> = new Set();

  constructor(
    private readonly vectors: VectorIndex,
    private readonly options: EmbedOptions,
    private readonly known: KnownVectors,
    private readonly made: Map<string, Float32Array>,
  ) {}

  /** Runs one pass; true when its signal stopped it. */
  async pass(pass: EmbedPass, { jobs, repeats }: PlannedPass): Promise<boolean> {
    this.repeats = repeats;
    const batchSize = this.options.batchSize ?? 32;
    const signal = this.options.signal;
    this.before = this.progress.seconds;
    this.began = performance.now();
    Object.assign(this.progress, {
      pass,
      conversations: jobs.length,
      conversationsDone: 0,
      characters: jobs.reduce((sum, job) => sum + job.characters, 0),
      charactersDone: 0,
    });
    for (const job of jobs) {
      if (signal?.aborted) return true;
      if (job.layout)
        job.units = unitsOf(
          job.owner,
          await this.vectors.texts(job.owner),
          this.options.chunk,
          job.layout,
        );
      const found = this.known(job.units.map((u) => u.textHash));
      for (const unit of job.units) {
        const vector = found.get(unit.textHash);
        if (vector) {
          unit.vector = vector;
          this.progress.cached++;
        } else {
          const twins = this.twins.get(unit.textHash);
          if (twins) {
            twins.push(unit);
            this.progress.cached++;
          } else {
            this.twins.set(unit.textHash, []);
            this.waiting.push(unit);
          }
        }
      }
      this.open.push(job);
      while (this.waiting.length >= batchSize) {
        if (signal?.aborted) return true;
        await this.embedSome(batchSize);
        await this.finish();
      }
      if (this.waiting.length === 0) await this.finish();
    }
    while (this.waiting.length > 0) {
      if (signal?.aborted) return true;
      await this.embedSome(batchSize);
    }
    await this.finish();
    return false;
  }

  /** Writes the conversations whose chunks all have a vector. */
  private async finish(): Promise<void> {
    const done = this.open.filter((job) => job.units.every((u) => u.vector));
    this.open = this.open.filter((job) => !done.includes(job));
    for (const job of done) {
      const units = job.units.map(({ text: _text, tokens: _tokens, vector, ...u }) => ({
        ...u,
        vector: vector ?? new Float32Array(0),
      }));
      await this.vectors.write(job.owner, job.hash, units);
      job.units = [];
      this.progress.conversationsDone++;
      this.progress.charactersDone += job.characters;
    }
    this.progress.seconds = this.before + (performance.now() - this.began) / 1000;
    this.options.onProgress?.({ ...this.progress });
  }

  /** Embeds one batch of the waiting chunks (similar lengths together, so less padding). */
  private async embedSome(batchSize: number): Promise<void> {
    const { embedder } = this.options;
    const batch = this.waiting.slice(0, batchSize).sort((a, b) => a.text.length - b.text.length);
    // The signal is checked between batches, not passed in: a batch takes seconds, and one cut
    // mid-way would be work thrown away rather than cached.
    const vectors = await embedder.embed(batch.map((u) => u.text));
    const entries: { textHash: string; vector: Float32Array }[] = [];
    batch.forEach((unit, i) => {
      const vector = vectors[i];
      if (!vector || vector.length !== embedder.model.dimensions)
        throw new Error(
          `the model ${embedder.model.id} gave a vector of ${String(vector?.length ?? 0)} dimensions, not ${String(embedder.model.dimensions)}`,
        );
      unit.vector = vector;
      for (const twin of this.twins.get(unit.textHash) ?? []) twin.vector = vector;
      this.twins.delete(unit.textHash);
      entries.push({ textHash: unit.textHash, vector });
      // The first pass's gists are the second's title units, found here even with no cache.
      if (this.progress.pass === 'conversations' || this.repeats.has(unit.textHash))
        this.made.set(unit.textHash, vector);
    });
    this.options.cache?.put(embedder.model.id, entries);
    this.progress.embedded += batch.length;
    this.waiting = this.waiting.slice(batchSize);
  }
}
