/** chatgraph's public API: the CLI, the web app and the MCP server use only what is here. */
export { convertExports } from './pipeline.js';
export type { ConvertOptions, ConversationSink, ImportProgress } from './pipeline.js';
export { NotAnExportError } from './not-an-export-error.js';
export { exitCodeOf, lostCount } from './exit-code.js';
export type { FileReport, ImportReport, ProblemGroup, ProviderSummary } from './import-report.js';
export type { Diagnostic } from './model/diagnostic.js';
export type {
  Attachment,
  Citation,
  Conversation,
  ConversationIndexEntry,
  Memory,
  MemoryStore,
  Message,
  Role,
  ToolCall,
} from './model/pam.js';
export { shownThread, threadTo } from './model/build-conversation.js';
export { PROVIDERS, findProvider } from './providers/registry.js';
export type { Provider } from './providers/provider.js';
export { writeSamples, writeChatgptExport, writeClaudeExport } from './sample/write-samples.js';
export { writeClaudeCodeProjects } from './sample/claude-code-sample.js';
export { VERSION } from './version.js';
export { importExports, reindex, pushBundle } from './import-exports.js';
export { openStore } from './open-store.js';
export type { StoreChoice } from './open-store.js';
export { Neo4jStore } from './stores/neo4j/neo4j-store.js';
export { neo4jTarget } from './stores/neo4j/neo4j-target.js';
export type { Neo4jTarget } from './stores/neo4j/neo4j-target.js';
export type { ImportOptions, ImportResult } from './import-exports.js';
export { resolveDataDir, bundleDir, storeFile } from './data-dir.js';
export { readBundleConversation } from './bundle/read-bundle.js';
export { ATTACHMENTS_DIR } from './bundle/layout.js';
export { claudeCodeProjectDirs } from './claude-code-home.js';
export { SqliteStore } from './stores/sqlite/sqlite-store.js';
export { MAX_SEARCH_LIMIT } from './stores/page-bounds.js';
export { QueryError, StoreConnectionError, MATCH_START, MATCH_END } from './stores/store.js';
export type {
  Store,
  GraphWriter,
  HashedBatch,
  ImportRecord,
  WriteReport,
  Row,
  SearchQuery,
  SearchHit,
  SearchResult,
  ThreadMessage,
  ConversationInfo,
  ConversationFilter,
  ConversationPage,
  Stats,
} from './stores/store.js';
export { project } from './graph/project.js';
export type { GraphBatch, GraphNode, GraphEdge } from './graph/graph-batch.js';
export { LABELS, EDGES } from './graph/schema.js';
