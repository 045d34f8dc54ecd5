/** `chatgraph/view`: showing what is stored: a conversation's view, its thread, code and attachments, exports. */
export { platformUrlOf, platformUrlsOf } from '../conversation-view/conversation-view.js';
export type {
  ConversationView,
  CitationView,
  AttachmentView,
  MessageView,
} from '../conversation-view/conversation-view.js';
export { codeCellsIn } from '../conversation-view/code-cell.js';
export type { CodeCell } from '../conversation-view/code-cell.js';
export { attachmentHeader } from '../conversation-view/attachment-header.js';
export { renderConversation } from '../export/render-conversation.js';
export type { ExportFormat, ExportReport } from '../export/export-conversations.js';
export { shortIds, shortMessageIds } from '../stores/short-ids.js';
export { branchThrough, forkLevels } from '../stores/thread-tree.js';
export { MATCH_START, MATCH_END } from '../stores/store.js';
export type { ThreadMessage, ThreadAttachment } from '../stores/store.js';
export { plural, thousands } from '../model/plural.js';
export type { GraphNode } from '../graph/graph-batch.js';
export { LABELS, EDGES } from '../graph/schema.js';
