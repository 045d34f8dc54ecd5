import type { Conversation } from '../model/pam.js';
import type { Provider } from '../providers/provider.js';
import type { GraphBatch } from './graph-batch.js';
import { importIdOf } from './import-id.js';
import { project, type ProjectOptions } from './project.js';

/** How {@link projectConversation} projects: the mode, the import that wrote it, attached texts. */
export interface ProjectConversationOptions {
  /** Deep mode: tool calls become DecisionTrace and TraceStep nodes. */
  deep: boolean;
  /**
   * The checksum of the export file that wrote the conversation (its Import node, linked by
   * IMPORTED). Defaults to the conversation's `import_metadata.source_checksum`, as read back
   * from a bundle; a conversation with neither gets no IMPORTED edge.
   */
  checksum?: string | undefined;
  /** The text behind an attachment's `ref` (see `ProjectOptions.attachmentText`). */
  attachmentText?: ProjectOptions['attachmentText'];
}

/**
 * Projects a conversation as every writer of the graph does (import, reindex, push), so tests
 * and benches see the same batches: the provider's source, label and file tools, and the
 * IMPORTED edge from the file that wrote it.
 */
export function projectConversation(
  conversation: Conversation,
  provider: Pick<Provider, 'source' | 'label' | 'fileTools' | 'conversationUrl'>,
  options: ProjectConversationOptions,
): GraphBatch {
  const checksum = options.checksum ?? conversation.import_metadata?.source_checksum;
  return project(conversation, {
    source: provider.source,
    label: provider.label,
    fileTools: provider.fileTools,
    conversationUrl: provider.conversationUrl,
    deep: options.deep,
    ...(checksum ? { importId: importIdOf(checksum) } : {}),
    ...(options.attachmentText ? { attachmentText: options.attachmentText } : {}),
  });
}
