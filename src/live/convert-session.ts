import { conversationBytes, type MessageBytes } from '../bundle/conversation-text.js';
import { toIndexEntry } from '../bundle/memory-store.js';
import type { GraphBatch } from '../graph/graph-batch.js';
import { project } from '../graph/project.js';
import { emptyProjectMemo, type ProjectMemo } from '../graph/project-memo.js';
import type { BuildChange } from '../model/build-conversation.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Conversation, ConversationIndexEntry } from '../model/pam.js';
import { claudeCode } from '../providers/claude-code/index.js';
import { SessionBuilder } from '../providers/claude-code/session-builder.js';
import { IMPORTER } from '../version.js';

/**
 * One conversation of a followed session log as of the lines read so far. What costs the
 * session's length (its bundle file, the hash of its content, its Document) waits for
 * {@link LiveConversation.settle}, which `watch` calls at a quiet moment: an append costs what
 * it adds.
 */
export interface LiveConversation {
  id: string;
  index: ConversationIndexEntry;
  /** The graph as of now, with the Document as the last settle made it. */
  batch: GraphBatch;
  /** Stands in for the content hash until settled: the checksum of the log's bytes read. */
  version: string;
  messages: number;
  /** The bundle file's bytes, its content hash, and the graph with its Document made again. */
  settle(): SettledConversation;
}

/** A conversation as `import` would write it from the lines read so far. */
export interface SettledConversation {
  /** The bundle file's bytes, and the hash of its content without import metadata. */
  text: Uint8Array;
  contentHash: string;
  batch: GraphBatch;
}

/** Where a session log's lines came from, for the conversion and its provenance. */
export interface SessionSource {
  /** The path the provider sees (relative to the followed folder): it names the session. */
  entryPath: string;
  /** The path written into `import_metadata.source_file` and messages. */
  displayPath: string;
  /** `session` or `subagent`, as detection said. */
  variant: string;
  /** sha256 of the bytes read so far (`sha256:<hex>`). */
  checksum: string;
  /** The Import node every conversation of this log hangs from (stable while the log grows). */
  importId: string;
  importedAt: string;
  deep: boolean;
}

/**
 * A session log's conversion as it grows: each call converts the lines read since the last
 * one, as `import` would convert the whole file (the provider's `SessionBuilder` goes on from
 * where it stopped, and falls back on converting everything where it must), and serialises
 * only the messages that changed (the others' text is kept by message).
 */
export class SessionConversion {
  private readonly builder: SessionBuilder;
  private readonly bytes: MessageBytes = new WeakMap();
  private readonly projected: ProjectMemo = emptyProjectMemo();
  private report: (diagnostic: Diagnostic) => void = () => undefined;
  private displayPath = '';

  constructor(source: Pick<SessionSource, 'entryPath' | 'variant'>) {
    this.builder = new SessionBuilder(source.variant, {
      record: '#0',
      file: source.entryPath,
      fallbackTime: undefined,
      report: (d) => {
        this.report({ ...d, file: this.displayPath });
      },
      resolveAsset: () => undefined,
      attachText: () => {
        throw new Error('Claude Code logs hold no attachment text');
      },
    });
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
    return conversations.map((conversation) => this.finish(conversation, source));
  }

  private finish(conversation: Conversation, source: SessionSource): LiveConversation {
    return {
      id: conversation.id,
      index: toIndexEntry(conversation),
      messages: conversation.messages.length,
      version: `live:${source.checksum}`,
      batch: this.project(conversation, source, false, this.builder.change),
      settle: () => {
        const { bytes, contentHash } = conversationBytes(
          conversation,
          {
            importer: IMPORTER,
            importer_version: `${claudeCode.name}-importer/${source.variant}`,
            imported_at: source.importedAt,
            source_file: source.displayPath,
            source_checksum: source.checksum,
          },
          this.bytes,
        );
        return { text: bytes, contentHash, batch: this.project(conversation, source, true) };
      },
    };
  }

  private project(
    conversation: Conversation,
    source: SessionSource,
    settle: boolean,
    change?: BuildChange,
  ): GraphBatch {
    return project(conversation, {
      source: claudeCode.source,
      label: claudeCode.label,
      fileTools: claudeCode.fileTools,
      deep: source.deep,
      importId: source.importId,
      attachmentText: () => undefined,
      memo: this.projected,
      settle,
      change,
    });
  }
}

/** Converts a session log's lines at once, as `import` converts the whole file. */
export function convertSession(
  entries: readonly unknown[],
  source: SessionSource,
  report: (diagnostic: Diagnostic) => void,
): LiveConversation[] {
  return new SessionConversion(source).convert(entries, source, report);
}
