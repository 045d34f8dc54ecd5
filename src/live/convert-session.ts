import { randomUUID } from 'node:crypto';
import { conversationBytes, type MessageBytes } from '../bundle/conversation-text.js';
import { toIndexEntry } from '../bundle/memory-store.js';
import type { GraphBatch } from '../graph/graph-batch.js';
import type { GraphDelta } from '../graph/graph-delta.js';
import { importIdOf } from '../graph/import-id.js';
import { projectGrowth, settleDocument } from '../graph/project-growth.js';
import { project, type ProjectOptions } from '../graph/project.js';
import { emptyProjectMemo, type ProjectMemo } from '../graph/project-memo.js';
import type { Diagnostic } from '../model/diagnostic.js';
import { mergeCopies } from '../model/merge-copies.js';
import type { Conversation, ConversationIndexEntry, ImportMetadata } from '../model/pam.js';
import { claudeCode } from '../providers/claude-code/index.js';
import type { ConversionContext, GrowingLog, Provider } from '../providers/provider.js';
import { IMPORTER } from '../model/version.js';
import { WholeRecord, type RecordShape } from './whole-record.js';

/** The provider a followed record is converted and projected by. */
export type LiveProvider = Pick<
  Provider,
  'name' | 'source' | 'label' | 'fileTools' | 'conversationUrl' | 'toConversation' | 'agent'
>;

/**
 * One conversation of a followed session log as of the lines read so far. An append costs
 * what it adds: its `delta` is what changed in the graph since the conversion's step before.
 * What costs the session's length (its bundle file, the hash of its content, its Document)
 * waits for {@link LiveConversation.settle}, which `watch` calls at a quiet moment.
 */
export interface LiveConversation {
  id: string;
  index: ConversationIndexEntry;
  messages: number;
  /** The conversion's step this is (`of` tells conversions apart): a delta is from step `n - 1`. */
  step: { of: string; n: number };
  /**
   * Stands in for the content hash until settled: this step's own (no other step, of this
   * process or another, writes it: its Document may differ for the same lines read).
   */
  version: string;
  /** What changed in the graph since the step before; undefined when it is only known whole. */
  delta: GraphDelta | undefined;
  /** The graph whole, with the Document as the last settle made it (costs the session's length). */
  batch(): GraphBatch;
  /** The bundle file's bytes, its content hash, and the Document made again. */
  settle(): SettledConversation;
  /** The conversation as the lines read so far give it. */
  conversation: Conversation;
  /**
   * This step merged with an earlier copy of the conversation (the bundle's, from before the
   * log was cut short or rewritten), as `import` merges two copies (see `mergeCopies`); its
   * graph comes whole (no delta). Undefined when the earlier copy knows nothing more. With
   * `owner` (another log of the session holds the leading copy), the result hangs from that
   * log's Import and names it as its source, as `import` of both logs gives.
   */
  carry(earlier: Conversation, owner?: SessionOwner): LiveConversation | undefined;
}

/** The log whose copy of a conversation leads (see `SessionOwners`): its path and checksum. */
export interface SessionOwner {
  displayPath: string;
  checksum: string;
}

/** A conversation as `import` would write it from the lines read so far. */
export interface SettledConversation {
  /** The bundle file's bytes, and the hash of its content without import metadata. */
  text: Uint8Array;
  contentHash: string;
  /** The Document's change, when the conversion's last step is this one. */
  delta: GraphDelta | undefined;
  /** The graph whole, as `import` writes it. */
  batch(): GraphBatch;
}

/** Where a session log's lines came from, for the conversion and its provenance. */
export interface SessionSource {
  /** The path the provider sees (relative to the followed folder): it names the session. */
  entryPath: string;
  /** The path written into `import_metadata.source_file` and messages. */
  displayPath: string;
  /** The variant its provider's detection said (`session`, `subagent`, `rollout`, …). */
  variant: string;
  /** Its provider (Claude Code's when not given). */
  provider?: LiveProvider;
  /** The file on disk, for providers that name a project by it (see `ConversionContext.localPath`). */
  localPath?: string;
  /** sha256 of the bytes read so far (`sha256:<hex>`). */
  checksum: string;
  /** The Import node every conversation of this log hangs from (stable while the log grows). */
  importId: string;
  importedAt: string;
  deep: boolean;
}

/**
 * A followed record's conversion as it grows: each call converts the lines read since the last
 * one (or, for a `document`, the record as it now stands), as `import` would convert the whole
 * file: a provider that can go on from where it stopped does (`AgentStore.grow`: Claude Code's
 * `SessionBuilder`, which falls back on converting everything where it must), the others
 * convert the record whole (`WholeRecord`). Only the messages that changed are serialised again
 * (the others' text is kept by message).
 */
export class SessionConversion {
  private readonly builder: GrowingLog;
  private readonly whole: WholeRecord | undefined;
  private readonly provider: LiveProvider;
  private readonly bytes: MessageBytes = new WeakMap();
  /** By conversation: a log holding several sessions gives several conversations. */
  private readonly projected = new Map<string, ProjectMemo>();
  private report: (diagnostic: Diagnostic) => void = () => undefined;
  private displayPath = '';
  private readonly id = randomUUID();
  private steps = 0;

  constructor(
    source: Pick<SessionSource, 'entryPath' | 'variant' | 'provider' | 'localPath'>,
    shape: RecordShape = 'lines',
  ) {
    this.provider = source.provider ?? claudeCode;
    const context: ConversionContext = {
      record: '#0',
      file: source.entryPath,
      ...(source.localPath !== undefined ? { localPath: source.localPath } : {}),
      fallbackTime: undefined,
      report: (d) => {
        this.report({ ...d, file: this.displayPath });
      },
      resolveAsset: () => undefined,
      // Text an agent's record holds for an attachment stays in its message: nothing is kept
      // beside it, as no coding agent's export carries such text.
      attachText: () => {
        throw new Error(`${this.provider.label} records hold no attachment text`);
      },
    };
    const grow = shape === 'lines' ? this.provider.agent?.grow : undefined;
    if (grow) {
      this.whole = undefined;
      this.builder = grow(source.variant, context);
    } else {
      const whole = new WholeRecord(this.provider, source.variant, context, shape);
      this.whole = whole;
      this.builder = whole;
    }
  }

  /** Sets the files beside a file set's claimed log, read as text, for the next call. */
  setSide(side: Record<string, string> | undefined): void {
    if (this.whole) this.whole.side = side;
  }

  /** How many times the log was converted again from its first line. */
  get rebuilds(): number {
    return this.builder.rebuilds;
  }

  /** The log's conversations once `entries` (the lines read since the last call) are added. */
  convert(
    entries: readonly unknown[],
    source: SessionSource,
    report: (diagnostic: Diagnostic) => void,
  ): LiveConversation[] {
    this.report = report;
    this.displayPath = source.displayPath;
    const conversations = this.builder.add(entries);
    // One step a call: each conversation of the log's delta is from the call before.
    const step = ++this.steps;
    return conversations.map((conversation) => this.finish(conversation, source, step));
  }

  private finish(conversation: Conversation, source: SessionSource, n: number): LiveConversation {
    const options = this.options(source, conversation.id);
    const { change } = this.builder;
    const step = { of: this.id, n };
    return {
      id: conversation.id,
      index: toIndexEntry(conversation),
      messages: conversation.messages.length,
      step,
      version: `live:${this.id}:${n}:${conversation.id}`,
      delta: change && projectGrowth(conversation, { ...options, change }),
      batch: () => project(conversation, { ...options, settle: false }),
      settle: () => {
        const { bytes, contentHash } = conversationBytes(
          conversation,
          this.metaOf(source),
          this.bytes,
        );
        return {
          text: bytes,
          contentHash,
          delta: settleDocument(conversation, options),
          batch: () => project(conversation, { ...options, settle: true }),
        };
      },
      conversation,
      carry: (earlier, owner) => this.carry(earlier, conversation, withOwner(source, owner), step),
    };
  }

  // The merged copy is projected whole, without the growth memo: that follows the log's lines.
  private carry(
    earlier: Conversation,
    conversation: Conversation,
    source: SessionSource,
    step: { of: string; n: number },
  ): LiveConversation | undefined {
    const merged = mergeCopies(earlier, conversation);
    if (merged.leading === 'arriving' && merged.added === 0) return undefined;
    const { import_metadata: _meta, ...whole } = merged.conversation;
    const { memo: _memo, ...options } = this.options(source, conversation.id);
    const batch = (): GraphBatch => project(whole, { ...options, settle: true });
    return {
      id: whole.id,
      index: toIndexEntry(whole),
      messages: whole.messages.length,
      step,
      version: `live:${this.id}:${step.n}:${whole.id}`,
      delta: undefined,
      batch,
      settle: () => {
        const { bytes, contentHash } = conversationBytes(whole, this.metaOf(source), this.bytes);
        return { text: bytes, contentHash, delta: undefined, batch };
      },
      conversation: whole,
      carry: (again, owner) => this.carry(again, conversation, withOwner(source, owner), step),
    };
  }

  private metaOf(source: SessionSource): ImportMetadata {
    return {
      importer: IMPORTER,
      importer_version: `${this.provider.name}-importer/${source.variant}`,
      imported_at: source.importedAt,
      source_file: source.displayPath,
      source_checksum: source.checksum,
    };
  }

  private options(source: SessionSource, id: string): ProjectOptions & { memo: ProjectMemo } {
    let memo = this.projected.get(id);
    if (!memo) {
      memo = emptyProjectMemo();
      this.projected.set(id, memo);
    }
    const { source: graphSource, label, fileTools, conversationUrl } = this.provider;
    return {
      source: graphSource,
      label,
      fileTools,
      conversationUrl,
      deep: source.deep,
      importId: source.importId,
      attachmentText: () => undefined,
      memo,
    };
  }
}

// The provenance of a merged copy another log's copy leads: that log's.
function withOwner(source: SessionSource, owner: SessionOwner | undefined): SessionSource {
  if (!owner) return source;
  const { displayPath, checksum } = owner;
  return { ...source, displayPath, checksum, importId: importIdOf(checksum) };
}

/** Converts a session log's lines at once, as `import` converts the whole file. */
export function convertSession(
  entries: readonly unknown[],
  source: SessionSource,
  report: (diagnostic: Diagnostic) => void,
): LiveConversation[] {
  return new SessionConversion(source).convert(entries, source, report);
}
