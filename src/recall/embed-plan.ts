import type { TextChunk } from '../embed/chunk-text.js';
import { textHash } from '../embed/text-hash.js';
import type {
  EmbeddingText,
  PendingConversation,
  VectorIndex,
  VectorUnit,
} from '../stores/vector-index.js';
import { gistOf, GIST_HASH_PREFIX } from './conversation-gist.js';

/** Which pass a plan or progress is about: one vector a conversation, then every chunk. */
export type EmbedPass = 'conversations' | 'chunks';

/** What one pass of an embed run has before it, and how long the model will take. */
export interface EmbedPlan {
  pass: EmbedPass;
  conversations: number;
  /** The conversations' texts (messages, attached texts, titles). */
  texts: number;
  /** The vectors the pass writes: chunks of the texts (one a conversation in the first pass). */
  chunks: number;
  /** Of those, chunks whose vector is in the cache or was made by the first pass. */
  cached: number;
  /** The tokens the model reads for the others. */
  tokens: number;
  characters: number;
  /** Seconds the model takes for the others on its cores, by its measured cost. */
  seconds: number;
  /** Sessions embedding at once, a core each (a local model's pool; absent for endpoints). */
  workers?: number;
}

/**
 * What embedding takes on one core: seconds a token and a chunk's own overhead for the model,
 * and a conversation's in the second pass (its texts read and cut, its vectors written; a gist's
 * one row is lost in the noise).
 */
export interface EmbedCost {
  perToken: number;
  perChunk: number;
  perConversation: number;
}

/**
 * Measured on this project's 2-core machine with one intra-op thread, in CPU seconds, over
 * chunks of 13 to 260 tokens: the cost is near linear in the tokens at these lengths; checked
 * against real exports by bench/embed-plan.mjs. Other models (endpoints, folders) are guessed
 * as the default.
 */
const DEFAULT_COST: EmbedCost = { perToken: 0.000165, perChunk: 0.0003, perConversation: 0.01 };
const COSTS: Record<string, EmbedCost> = {
  'all-minilm-l6-v2': DEFAULT_COST,
  'multilingual-e5-small': { perToken: 0.00026, perChunk: 0.0006, perConversation: 0.01 },
  // Measured beside all-minilm-l6-v2 in one process each, one thread, 200 to 60 texts of 10 to
  // 160 words (load 9): 58-66 µs a token against 279-342, so about a fifth of its figures here.
  'use-multilingual-v3': { perToken: 0.000035, perChunk: 0.00006, perConversation: 0.01 },
};

/**
 * The cost on `workers` sessions at once: the model's runs are shared among them, a
 * conversation's reading and writing (in the main thread) is not.
 */
export function spreadOver(cost: EmbedCost, workers: number): EmbedCost {
  const share = Math.max(1, workers);
  return { ...cost, perToken: cost.perToken / share, perChunk: cost.perChunk / share };
}

/** The cost of embedding with a model, by its id. */
export function embedCostOf(modelId: string): EmbedCost {
  return COSTS[modelId] ?? DEFAULT_COST;
}

/** A chunk waiting for its vector, with the tokens the chunker counted in it. */
export type PendingUnit = Omit<VectorUnit, 'vector'> & {
  text: string;
  tokens: number;
  vector?: Float32Array;
};

/** Where a text's chunks lie, as the plan cut them. */
type Cuts = { start: number; end: number; tokens: number }[];

/** One conversation's share of a pass. */
export interface Job {
  owner: string;
  /** The hash its vectors are recorded with. */
  hash: string;
  units: PendingUnit[];
  characters: number;
  /** The plan's chunks of each text (by its length), so the run does not cut them again. */
  layout?: { lengths: number[]; cuts: Cuts[] };
}

type Chunker = (text: string) => TextChunk[];

/** The one unit of a conversation's first pass (it stands where the title's unit would). */
function gistUnit(owner: string, texts: readonly EmbeddingText[], chunk: Chunker): PendingUnit[] {
  const gist = gistOf(texts);
  // The gist is one vector: the first chunk is what the model reads whole.
  const first = gist ? chunk(gist.text)[0] : undefined;
  if (!gist || !first) return [];
  return [
    {
      nodeId: owner,
      kind: 'title',
      messageId: gist.messageId,
      source: gist.source,
      role: null,
      createdAt: gist.createdAt,
      chunk: 0,
      start: 0,
      end: gist.titleLength,
      text: first.text,
      tokens: first.tokens ?? 0,
      textHash: textHash(first.text),
    },
  ];
}

/** The texts a conversation's chunks come from (its title is in the gist instead). */
function chunkedTexts(texts: readonly EmbeddingText[]): EmbeddingText[] {
  return texts.filter((t) => t.kind !== 'title');
}

/** Each text's chunks: the plan's when the texts are the ones it saw, else cut now. */
function cutsOf(texts: readonly EmbeddingText[], chunk: Chunker, layout?: Job['layout']): Cuts[] {
  const same =
    layout !== undefined &&
    layout.lengths.length === texts.length &&
    texts.every((t, i) => layout.lengths[i] === t.text.length);
  return texts.map(
    (t, i) =>
      (same ? layout.cuts[i] : undefined) ??
      chunk(t.text).map((c) => ({ start: c.start, end: c.end, tokens: c.tokens ?? 0 })),
  );
}

/** A conversation's units: its gist (for the title), then every chunk of its other texts. */
export function unitsOf(
  owner: string,
  texts: readonly EmbeddingText[],
  chunk: Chunker,
  layout?: Job['layout'],
): PendingUnit[] {
  const others = chunkedTexts(texts);
  const cuts = cutsOf(others, chunk, layout);
  const units = gistUnit(owner, texts, chunk);
  others.forEach(({ text, ...rest }, i) => {
    (cuts[i] ?? []).forEach((c, n) => {
      const piece = text.slice(c.start, c.end);
      units.push({
        ...rest,
        chunk: n,
        start: c.start,
        end: c.end,
        text: piece,
        tokens: c.tokens,
        textHash: textHash(piece),
      });
    });
  });
  return units;
}

/** The vectors known before the model runs: the cache's, and the first pass's. */
export type KnownVectors = (hashes: readonly string[]) => Map<string, Float32Array>;

function emptyPlan(pass: EmbedPass, conversations: number): EmbedPlan {
  return {
    pass,
    conversations,
    texts: 0,
    chunks: 0,
    cached: 0,
    tokens: 0,
    characters: 0,
    seconds: 0,
  };
}

/** A pass's plan, its jobs, and the texts it holds more than once (embedded once, kept). */
export interface PlannedPass {
  jobs: Job[];
  plan: EmbedPlan;
  repeats: Set<string>;
}

function newPass(plan: EmbedPlan): PlannedPass & { seen: Set<string> } {
  return { jobs: [], plan, repeats: new Set(), seen: new Set() };
}

/** Counts a conversation's units: known ones, repeats of one counted before, and the rest. */
function count(
  planned: PlannedPass & { seen: Set<string> },
  units: readonly PendingUnit[],
  known: KnownVectors,
  cost: EmbedCost,
): void {
  const { plan, seen } = planned;
  const found = known(units.map((u) => u.textHash));
  plan.chunks += units.length;
  for (const unit of units)
    if (found.has(unit.textHash)) plan.cached++;
    else if (seen.has(unit.textHash)) {
      plan.cached++;
      planned.repeats.add(unit.textHash);
    } else {
      seen.add(unit.textHash);
      plan.tokens += unit.tokens;
      plan.seconds += cost.perChunk + cost.perToken * unit.tokens;
    }
}

/**
 * The first pass: one unit a conversation that has no vectors yet (or only an older gist),
 * newest first. Conversations with older full vectors keep them until the second pass.
 */
export async function planGists(
  vectors: VectorIndex,
  pending: readonly PendingConversation[],
  chunk: Chunker,
  known: KnownVectors,
  cost: EmbedCost,
): Promise<PlannedPass> {
  const planned = newPass(emptyPlan('conversations', 0));
  const { jobs, plan } = planned;
  for (const p of pending) {
    const hash = GIST_HASH_PREFIX + p.hash;
    if (p.embedded !== null && (!p.embedded.startsWith(GIST_HASH_PREFIX) || p.embedded === hash))
      continue;
    const units = gistUnit(p.owner, await vectors.texts(p.owner), chunk);
    if (units.length === 0) continue;
    const characters = units[0]?.text.length ?? 0;
    jobs.push({ owner: p.owner, hash, units, characters });
    plan.conversations++;
    plan.texts++;
    plan.characters += characters;
    count(planned, units, known, cost);
  }
  return { jobs, plan, repeats: planned.repeats };
}

/** The second pass: every chunk of every pending conversation, cut once here. */
export async function planChunks(
  vectors: VectorIndex,
  pending: readonly PendingConversation[],
  chunk: Chunker,
  known: KnownVectors,
  cost: EmbedCost,
): Promise<PlannedPass> {
  const planned = newPass(emptyPlan('chunks', pending.length));
  const { jobs, plan } = planned;
  for (const p of pending) {
    const texts = await vectors.texts(p.owner);
    const others = chunkedTexts(texts);
    const layout = { lengths: others.map((t) => t.text.length), cuts: cutsOf(others, chunk) };
    const units = unitsOf(p.owner, texts, chunk, layout);
    const characters = texts.reduce((sum, t) => sum + t.text.length, 0);
    jobs.push({
      owner: p.owner,
      hash: p.hash,
      units: [],
      characters,
      layout,
    });
    plan.texts += texts.length;
    plan.characters += characters;
    plan.seconds += cost.perConversation;
    count(planned, units, known, cost);
  }
  return { jobs, plan, repeats: planned.repeats };
}
