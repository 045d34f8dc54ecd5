import { stat } from 'node:fs/promises';
import { BundleWriter } from '../bundle/bundle-writer.js';
import { inlineTextReader } from '../bundle/read-inline-text.js';
import type { Folder } from '../folder/folder.js';
import { readTombstones } from '../folder/deleted-conversations.js';
import type { Conversation, ConversationIndexEntry } from '../model/pam.js';
import { BadBundleFileError, readBundleConversation } from '../bundle/read-bundle.js';
import { stableId } from '../model/ids.js';
import type { Redactor } from '../model/redact.js';
import { mergeRedactor, storedCopyForMerge } from '../model/stored-copy.js';
import { timestampOf } from '../model/time.js';
import type { Store } from '../stores/store.js';
import { IMPORTER } from '../model/version.js';
import type { LiveConversation } from './convert-session.js';
import { LiveStoreWriter } from '../pipeline/live-store-writer.js';
import {
  project,
  toBundle,
  toStore,
  type FileEvent,
  type Grown,
  type Step,
} from '../pipeline/import-stages.js';
import { SessionOwners } from './session-owners.js';

/** What one write of a followed log did. */
export interface LiveWriteReport {
  written: number;
  unchanged: number;
  /** Conversations deleted with `chatgraph delete`: not written again. */
  leftDeleted: number;
  /** Conversations another log holds a more recent copy of that this log adds nothing to (one session id in two logs). */
  heldElsewhere: number;
}

/** The Import node a followed log's conversations hang from. */
export interface LiveImport {
  id: string;
  sourceFile: string;
  checksum: string;
  /** Bytes the checksum covers; whether secrets were masked (as `import` records them). */
  size: number;
  redacted: boolean;
}

/**
 * Writes followed logs' conversations to the store and the bundle, keeping both open between
 * writes. An append costs what changed: the store gets only what changed (see `LiveStoreWriter`),
 * searchable at once; what costs the session's length waits for {@link settle}, which the
 * follower calls after a quiet moment: the conversation's bundle file (written without being
 * read again: the hash of what this writer last wrote says it changed), its Document and
 * content hash in the store, and the bundle's index (`memory-store.json`).
 * Callers hold the write lock around every method.
 */
export class LiveWriter {
  private bundle: BundleWriter | undefined;
  private bundleStamp = '';
  private readonly lastHash = new Map<string, string>();
  private readonly graph: LiveStoreWriter;
  private readonly unsettled = new Map<string, LiveConversation>();
  private readonly unindexed = new Map<string, ConversationIndexEntry>();
  private readonly owners: SessionOwners;
  /** The conversion of a log that last wrote each conversation (see {@link earlierCopy}). */
  private readonly conversionOf = new Map<string, string>();
  /** Earlier copies that know more than their log now says: merged into every step. */
  private readonly carried = new Map<string, Conversation>();

  private constructor(
    readonly folder: Folder,
    private readonly store: Store,
    private readonly deep: boolean,
  ) {
    this.owners = new SessionOwners(folder.bundle);
    this.graph = new LiveStoreWriter(store, deep);
  }

  /** A writer over the folder's store, opened now and kept open until {@link close}. */
  static async open(folder: Folder): Promise<LiveWriter> {
    const store = await folder.openStore();
    return new LiveWriter(folder, store, await store.deep());
  }

  /**
   * Writes a log's conversations to the store; their bundle files wait for {@link settle}. With
   * `from.redacted`, the earlier copy merged in is masked with `redactor` (the session's).
   */
  async write(
    conversations: readonly LiveConversation[],
    from: LiveImport,
    redactor?: Redactor,
  ): Promise<LiveWriteReport> {
    const report: LiveWriteReport = { written: 0, unchanged: 0, leftDeleted: 0, heldElsewhere: 0 };
    const steps = this.steps(conversations, from, redactor, report);
    for await (const event of toStore(steps, { steps: this.graph, store: this.store }))
      if (event.kind === 'stepped') report[event.outcome]++;
    return report;
  }

  /**
   * The steps of a log's conversations to write, each merged with its earlier copy, then the
   * log's Import (its earlier checksums, that no conversation hangs from any more, dropped).
   */
  private async *steps(
    conversations: readonly LiveConversation[],
    from: LiveImport,
    redactor: Redactor | undefined,
    report: LiveWriteReport,
  ): AsyncGenerator<Step | FileEvent> {
    const bundle = await this.openBundle();
    const deleted = new Set((await readTombstones(this.folder)).map((t) => t.id));
    for (const conversation of conversations) {
      if (deleted.has(conversation.id)) {
        report.leftDeleted++;
        continue;
      }
      const { id, index } = conversation;
      const owns = await this.owners.takes(
        id,
        from.sourceFile,
        from.checksum,
        index,
        bundle.indexed(id),
      );
      const earlier = await this.earlierCopy(
        conversation,
        from.redacted ? (redactor ?? mergeRedactor(true)) : undefined,
      );
      const owner = owns ? undefined : this.owners.owner(id);
      const written = (earlier && conversation.carry(earlier, owner)) ?? conversation;
      // Another log's more recent copy leads; this log's copy only adds what that one lacked.
      if (!owns && (!earlier || written.messages === earlier.messages.length)) {
        report.heldElsewhere++;
        continue;
      }
      yield { kind: 'step', conversation: written };
      // Here once the store has the step.
      this.unsettled.set(id, written);
    }
    const { id, sourceFile, checksum, size, redacted } = from;
    const importedAt = timestampOf(new Date());
    const record = { id, sourceFile, checksum, importer: IMPORTER, importedAt, size, redacted };
    yield { kind: 'log-written', record };
  }

  /**
   * The copy a log's conversation is merged with, so that a log cut short or rewritten loses
   * nothing imported: looked for once per conversion of the log (a conversion grows from what it
   * wrote), in memory (not settled yet) or in the bundle, and kept for the conversion's later
   * steps when it knows more.
   */
  private async earlierCopy(
    conversation: LiveConversation,
    redactor: Redactor | undefined,
  ): Promise<Conversation | undefined> {
    const { id, step } = conversation;
    if (this.conversionOf.get(id) === step.of) return this.carried.get(id);
    // A new conversion (a log rewritten again): merged with the latest copy, not the one before.
    this.conversionOf.set(id, step.of);
    this.carried.delete(id);
    const found =
      this.unsettled.get(id)?.conversation ??
      (await readBundleConversation(this.folder.bundle, id).catch((error: unknown) => {
        // A damaged bundle file is written anew, as before.
        if (error instanceof BadBundleFileError) return undefined;
        throw error;
      }));
    // `--redact`: what an earlier plain import wrote is masked before it is merged back.
    const earlier = found && storedCopyForMerge(found, redactor);
    if (!earlier || !conversation.carry(earlier)) return undefined;
    this.carried.set(id, earlier);
    return earlier;
  }

  /** Whether conversations were written whose bundle file or index entry waits for {@link settle}. */
  get settlePending(): boolean {
    return this.unsettled.size > 0 || this.unindexed.size > 0;
  }

  /**
   * Writes what waited for a quiet moment: each grown conversation's bundle file, its Document
   * and content hash in the store, then the bundle's index with what was written since the
   * last time.
   */
  async settle(): Promise<void> {
    const waiting = new Map(this.unsettled);
    this.unsettled.clear();
    const bundle = await this.openBundle();
    // The bundle file, then the store: it holds the stand-in version until it gets the content hash.
    const grown = this.grown(waiting.values());
    const target = { steps: this.graph, store: this.store };
    const written = toBundle(grown, bundle, new Map(), undefined);
    // The same stages as an import's; a step comes projected already (its conversion's graph).
    const projection = {
      deep: this.deep,
      attachmentText: inlineTextReader(this.folder.bundle),
    };
    for await (const event of toStore(project(written, projection), target)) {
      if (event.kind !== 'stepped') continue;
      const { conversation, settled, bundled } = event.step;
      const index = waiting.get(conversation.id)?.index;
      if (bundled !== undefined && bundled !== 'unchanged' && index)
        this.unindexed.set(conversation.id, index);
      if (settled) this.lastHash.set(conversation.id, settled.contentHash);
    }
    if (this.unindexed.size > 0) {
      const now = timestampOf(new Date());
      await bundle.finish(
        { id: bundle.ownerId ?? stableId('owner', 'claude-code-live'), createdAt: now },
        now,
      );
      this.unindexed.clear();
      this.bundleStamp = await stampOf(this.folder);
    }
  }

  // Each waiting conversation settled (its file's text, content hash and Document made), one
  // at a time as the bundle stage asks: a first pass may settle every session followed.
  private *grown(waiting: Iterable<LiveConversation>): Generator<Grown> {
    for (const conversation of waiting) {
      const settled = conversation.settle();
      const { text, contentHash } = settled;
      const known = this.lastHash.get(conversation.id);
      const step: Step = { kind: 'step', conversation, settled };
      yield { kind: 'grown', step, text, contentHash, index: conversation.index, known };
    }
  }

  /** The store the writer writes to (the follower embeds through it). */
  get target(): Store {
    return this.store;
  }

  async close(): Promise<void> {
    await this.store.close();
  }

  // Another writer (an import) that wrote `memory-store.json` since: its index is read again,
  // with this writer's entries not yet written put back over it.
  private async openBundle(): Promise<BundleWriter> {
    const stamp = await stampOf(this.folder);
    if (this.bundle && stamp === this.bundleStamp) return this.bundle;
    this.bundle = await BundleWriter.open(this.folder.bundle);
    for (const [id, entry] of this.unindexed) this.bundle.setIndexEntry(id, entry);
    this.bundleStamp = stamp;
    return this.bundle;
  }
}

async function stampOf(folder: Folder): Promise<string> {
  const info = await stat(folder.files.onDisk(folder.layout.bundle.memoryStore)).catch(
    () => undefined,
  );
  return info ? `${info.ino}:${info.size}:${info.mtimeMs}` : 'none';
}
