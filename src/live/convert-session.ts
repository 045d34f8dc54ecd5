import { conversationText } from '../bundle/conversation-text.js';
import { toIndexEntry } from '../bundle/memory-store.js';
import type { GraphBatch } from '../graph/graph-batch.js';
import { project } from '../graph/project.js';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Conversation, ConversationIndexEntry } from '../model/pam.js';
import { claudeCode } from '../providers/claude-code/index.js';
import type { LinesValue } from '../read/record.js';
import { IMPORTER } from '../version.js';

/** One conversation of a followed session log, ready for the bundle and the store. */
export interface LiveConversation {
  id: string;
  /** The bundle file's text, and the hash of its content without import metadata. */
  text: string;
  contentHash: string;
  index: ConversationIndexEntry;
  batch: GraphBatch;
  messages: number;
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
 * Converts a session log's lines read so far into its conversations, as `import` would
 * convert the whole file: the provider merges split replies, late tool results and compaction
 * boundaries itself, so a live conversation never differs from an imported one.
 */
export function convertSession(
  entries: readonly unknown[],
  source: SessionSource,
  report: (diagnostic: Diagnostic) => void,
): LiveConversation[] {
  const value: LinesValue = { entries: [...entries], badLines: [], cutLastLine: false };
  const converted = claudeCode.toConversation(value, source.variant, {
    record: '#0',
    file: source.entryPath,
    fallbackTime: undefined,
    report: (d) => {
      report({ ...d, file: source.displayPath });
    },
    resolveAsset: () => undefined,
    attachText: () => {
      throw new Error('Claude Code logs hold no attachment text');
    },
  });
  const conversations: Conversation[] =
    converted === undefined ? [] : Array.isArray(converted) ? converted : [converted];
  return conversations.map((conversation) => {
    const { text, contentHash } = conversationText(
      conversation,
      {
        importer: IMPORTER,
        importer_version: `${claudeCode.name}-importer/${source.variant}`,
        imported_at: source.importedAt,
        source_file: source.displayPath,
        source_checksum: source.checksum,
      },
      true,
    );
    return {
      id: conversation.id,
      text,
      contentHash: contentHash ?? '',
      index: toIndexEntry(conversation),
      messages: conversation.messages.length,
      batch: project(conversation, {
        source: claudeCode.source,
        label: claudeCode.label,
        fileTools: claudeCode.fileTools,
        deep: source.deep,
        importId: source.importId,
        attachmentText: () => undefined,
      }),
    };
  });
}
