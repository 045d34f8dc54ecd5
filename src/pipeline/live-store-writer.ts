import type { GraphBatch } from '../graph/graph-batch.js';
import type { GraphDelta } from '../graph/graph-delta.js';
import type { GraphSink, HashedBatch } from '../stores/store.js';

/** A followed conversation as of a step of its conversion (`LiveConversation`, live/convert-session.ts). */
export interface StepConversation {
  id: string;
  /** The conversion's step this is (`of` tells conversions apart): a delta is from step `n - 1`. */
  step: { of: string; n: number };
  /** Stands in for the content hash until settled. */
  version: string;
  /** What changed in the graph since the step before; undefined when it is only known whole. */
  delta: GraphDelta | undefined;
  /** The graph whole (costs the session's length). */
  batch(): GraphBatch;
}

/** A step settled: its Document made again, and its content hash as its version. */
export interface SettledStep {
  contentHash: string;
  delta: GraphDelta | undefined;
  batch(): GraphBatch;
}

/** The conversion step of a conversation the store holds, and the version it holds it as. */
interface Held {
  of: string;
  n: number;
  hash: string;
}

// Conversations whose last batch is kept for stores patched by batch: the ones written to now.
const KEPT_BATCHES = 64;

/**
 * The store stage's way with a followed log (see `toStore`, import-stages.ts): writes its
 * conversations' steps to the store at the cost of what changed: a step's
 * delta over the step before when the store holds that one (see `Store.applyDelta`, SQLite and
 * Neo4j). A step without a delta (deep mode, a change the conversion could not go on from, the
 * first step of a log) gets its graph whole, patched over the last batch written where there is
 * one, else written whole; so does a store another writer changed meanwhile.
 */
export class LiveStoreWriter {
  private readonly held = new Map<string, Held>();
  private readonly batches = new Map<string, HashedBatch>();

  constructor(
    private readonly store: Pick<GraphSink, 'patch' | 'applyDelta' | 'writer'>,
    private readonly deep: boolean,
  ) {}

  /** Writes a conversation as of a new step (its Document as last settled). */
  step(conversation: StepConversation): Promise<'written' | 'unchanged'> {
    const { id, step, delta, version } = conversation;
    const held = this.held.get(id);
    const follows = held?.of === step.of && held.n === step.n - 1;
    return this.write(id, step, version, follows ? delta : undefined, () => conversation.batch());
  }

  /** Writes a settled step: its Document made again, and its content hash as its version. */
  settled(
    conversation: Pick<StepConversation, 'id' | 'step'>,
    settled: SettledStep,
  ): Promise<'written' | 'unchanged'> {
    const { id, step } = conversation;
    const held = this.held.get(id);
    const same = held?.of === step.of && held.n === step.n;
    return this.write(id, step, settled.contentHash, same ? settled.delta : undefined, () =>
      settled.batch(),
    );
  }

  private async write(
    id: string,
    step: { of: string; n: number },
    hash: string,
    delta: GraphDelta | undefined,
    whole: () => GraphBatch,
  ): Promise<'written' | 'unchanged'> {
    const held = this.held.get(id);
    if (delta && held && this.store.applyDelta) {
      const outcome = await this.store.applyDelta(delta, held.hash, hash, this.deep);
      if (outcome === 'written') {
        // The batch kept is no longer what the store holds.
        this.batches.delete(id);
        this.held.set(id, { ...step, hash });
        return outcome;
      }
    }
    const next: HashedBatch = { ...whole(), hash };
    const previous = this.batches.get(id);
    let outcome: 'written' | 'unchanged';
    if (previous && this.store.patch) outcome = await this.store.patch(previous, next, this.deep);
    else {
      const writer = this.store.writer(this.deep);
      await writer.write(next);
      outcome = (await writer.end()).written > 0 ? 'written' : 'unchanged';
    }
    this.keep(id, next);
    this.held.set(id, { ...step, hash });
    return outcome;
  }

  private keep(id: string, batch: HashedBatch): void {
    this.batches.delete(id);
    this.batches.set(id, batch);
    if (this.batches.size > KEPT_BATCHES) {
      const oldest = this.batches.keys().next().value;
      if (oldest !== undefined) this.batches.delete(oldest);
    }
  }
}
