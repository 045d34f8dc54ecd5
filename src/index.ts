/**
 * chatgraph's public API: the CLI, the web app and the MCP server use only what is here.
 * Importing it loads no store: `openStore` loads SQLite or the Neo4j driver when it opens one,
 * and the stores' classes are exported by `chatgraph/sqlite` and `chatgraph/neo4j`.
 */
export { convertExports } from './pipeline/convert-exports.js';
export type { ConvertOptions, ImportProgress } from './pipeline/convert-options.js';
export { NotAnExportError } from './pipeline/not-an-export-error.js';
export { exitCodeOf, lostCount } from './pipeline/exit-code.js';
export type {
  FileReport,
  ImportReport,
  ProblemGroup,
  ProviderSummary,
} from './pipeline/import-report.js';
export type { Diagnostic } from './model/diagnostic.js';
export type {
  Attachment,
  Citation,
  Conversation,
  ConversationIndexEntry,
  Memory,
  MemoryStore,
  Message,
  Relation,
  RelationType,
  Role,
  ToolCall,
} from './model/pam.js';
export { RELATION_TYPES } from './model/pam.js';
export { shownThread, threadTo } from './model/build-conversation.js';
export { PROVIDERS, findProvider } from './providers/registry.js';
export type { Provider } from './providers/provider.js';
export { writeSamples, writeChatgptExport, writeClaudeExport } from './sample/write-samples.js';
export { writeClaudeCodeProjects } from './sample/claude-code-sample.js';
export { VERSION } from './model/version.js';
export { DataFolder } from './data-folder/data-folder.js';
export type { DataFolderOptions, MemoryOptions } from './data-folder/data-folder.js';
export { importExports, reindex, pushBundle } from './data-folder/import-exports.js';
export type { BundleLoad, LoadOptions } from './data-folder/import-exports.js';
export {
  withWriteLock,
  waitingMessage,
  WriteLockBusyError,
  WRITE_LOCK_FILE,
} from './data-folder/write-lock.js';
export type { LockHolder, WriteLockOptions } from './data-folder/write-lock.js';
export {
  deleteConversation,
  ConversationNotFoundError,
} from './data-folder/delete-conversation.js';
export type { DeleteOptions, DeleteResult } from './data-folder/delete-conversation.js';
export { readTombstones, DELETED_FILE } from './data-folder/deleted-conversations.js';
export type { Tombstone } from './data-folder/deleted-conversations.js';
export { StoreDamagedError } from './stores/sqlite/store-damage.js';
export { openStore } from './data-folder/open-store.js';
export type { StoreChoice } from './data-folder/open-store.js';
export { neo4jTarget } from './stores/neo4j/neo4j-target.js';
export type { Neo4jTarget } from './stores/neo4j/neo4j-target.js';
export type { ImportOptions, ImportResult } from './data-folder/import-exports.js';
export { resolveDataDir, bundleDir, storeFile } from './data-folder/data-dir.js';
export { readBundleConversation, BadBundleFileError } from './bundle/read-bundle.js';
export {
  platformUrlOf,
  platformUrlsOf,
  readConversationView,
} from './conversation-view/conversation-view.js';
export { codeCellsIn, type CodeCell } from './conversation-view/code-cell.js';
export type {
  AttachmentView,
  CitationView,
  ConversationView,
  MessageView,
  ToolCallView,
} from './conversation-view/conversation-view.js';
export { claudeCodeProjectDirs } from './live/claude-code-home.js';
export { MAX_SEARCH_LIMIT } from './stores/page-bounds.js';
export { QueryError, StoreConnectionError, MATCH_START, MATCH_END } from './stores/store.js';
export type { MessageRef } from './stores/store.js';
export { messagePart, shortIds, shortMessageIds } from './stores/short-ids.js';
export {
  AmbiguousIdError,
  MIN_ID_PREFIX,
  UnknownIdError,
  resolveConversation,
  resolveMessage,
  resolveThreadTarget,
} from './stores/resolve-id.js';
export type { ThreadTarget } from './stores/resolve-id.js';
export { branchThrough, forkLevels } from './stores/thread-tree.js';
export {
  CLI_QUERY_LIMITS,
  SERVER_QUERY_LIMITS,
  QueryLimitError,
  queryLimits,
} from './stores/query-limits.js';
export type {
  Store,
  GraphWriter,
  HashedBatch,
  ImportRecord,
  WriteReport,
  Row,
  QueryLimits,
  SearchQuery,
  SearchHit,
  SearchResult,
  ThreadMessage,
  ThreadAttachment,
  ConversationInfo,
  ConversationFilter,
  ConversationPage,
  Stats,
} from './stores/store.js';
export { project } from './graph/project.js';
export { projectConversation } from './graph/project-conversation.js';
export type { ProjectConversationOptions } from './graph/project-conversation.js';
export type { GraphBatch, GraphNode, GraphEdge } from './graph/graph-batch.js';
export { LABELS, EDGES } from './graph/schema.js';
export { embedStore, openQueryEmbedder, VECTOR_CACHE_FILE } from './recall/embed-store.js';
export type { EmbedStoreOptions, QueryEmbedder } from './recall/embed-store.js';
export { embedConversations } from './recall/embed-conversations.js';
export type {
  EmbedPlan,
  EmbedProgress,
  EmbedReport,
  EmbedOptions,
  TextEmbedder,
} from './recall/embed-conversations.js';
export { recall, similarMessages, fuseRankings } from './recall/recall-search.js';
export { recallConversations } from './recall/recall-conversations.js';
export { buildTopicMap, clusterConversations, topicMapCache } from './recall/topic-map.js';
export type { TopicCluster, TopicMap, TopicMapOptions } from './recall/topic-map.js';
export type { ConversationResult } from './recall/recall-conversations.js';
export { groupByConversation } from './search/group-by-conversation.js';
export type { ConversationHit, ConversationPassage } from './search/group-by-conversation.js';
export { aboveFloor, relevanceFloor } from './search/relevance-floor.js';
export type { RelevanceFloor } from './search/relevance-floor.js';
export type { QueryEmbedding } from './recall/recall-search.js';
export { VectorModelMismatchError } from './stores/vector-index.js';
export type {
  VectorIndex,
  VectorHit,
  IndexedModel,
  ConversationVector,
} from './stores/vector-index.js';
export type { SearchMode, HitReason } from './stores/store.js';
export { createRecaller } from './recall/recaller.js';
export type { Recaller } from './recall/recaller.js';
export { openEmbedder } from './embed/open-embedder.js';
export type { OpenEmbedderOptions } from './embed/open-embedder.js';
export type { Embedder, ModelInfo } from './embed/embedder.js';
export { chunkText } from './embed/chunk-text.js';
export type { TextChunk, ChunkOptions } from './embed/chunk-text.js';
export { textHash } from './embed/text-hash.js';
export {
  ModelNotInstalledError,
  EmbeddingEndpointError,
  ModelFetchError,
} from './embed/embed-errors.js';
export { fetchModel } from './embed/model-fetch.js';
export type { FetchModelOptions, FetchModelResult } from './embed/model-fetch.js';
export { MODEL_CATALOG, DEFAULT_MODEL } from './embed/model-catalog.js';
export type { CatalogModel } from './embed/model-catalog.js';
export { listInstalledModels, resolveModelDir } from './embed/model-folder.js';
export type { InstalledModel, ModelManifest } from './embed/model-folder.js';
export { attachmentHeader } from './conversation-view/attachment-header.js';
export { followFolders } from './data-folder/follow-folders.js';
export type { FollowOptions, Follower } from './live/follower.js';
export type { FollowEvent } from './live/follow-event.js';
export { LIVE_STATE_FILE } from './live/live-state-file.js';
export { remember, forget, reviseMemory, MemoryNotFoundError } from './memory/remember.js';
export type { RememberInput, RememberResult, MemoryRevision, RelateTo } from './memory/remember.js';
export type { MemoryVectorNote } from './recall/memory-vectors.js';
export { syncMemories } from './memory/sync-memories.js';
export type { MemorySync } from './memory/sync-memories.js';
export type { MemoryTarget } from './memory/write-memories.js';
export { flushMemories } from './memory/write-memories.js';
export { MEMORY_JOURNAL_FILE } from './bundle/memory-journal.js';
export { listMemories, readMemories, memoryView, MEMORY_PAGE } from './memory/list-memories.js';
export type { MemoryQuery, MemoryView, MemoryPage } from './memory/list-memories.js';
export { recentActivity, RECENT_LIMIT } from './memory/recent-activity.js';
export type { RecentActivity } from './memory/recent-activity.js';
export { MEMORY_CONTENT_LIMIT, MEMORY_TYPES, MemoryInputError } from './model/memory-input.js';
export type { MemoryInput } from './model/memory-input.js';
export type { MemoryStatus, MemoryType, ExtractionMethod } from './model/pam.js';
export { parseDateBound, DATE_BOUND_FORMS } from './stores/date-bound.js';
export { MemoryStoreError } from './bundle/read-memory-store.js';
export type { MemoryIndex, MemoryMatch } from './stores/memory-index.js';
export { diagnose, DataFolderMissingError } from './doctor/doctor.js';
export type { DoctorCheck, DoctorOptions } from './doctor/doctor.js';
export { plural } from './model/plural.js';
export {
  createSigningKey,
  readSigningKey,
  SigningKeyError,
  type SigningKey,
} from './trust/signing-key.js';
export { signBundle, type SignResult } from './trust/sign-bundle.js';
export { decryptFolder, encryptFolder, type ConvertReport } from './data-folder/encrypt-folder.js';
export type { Unlock } from './at-rest/folder-key.js';
export { FolderEncryptionError } from './bundle/encryption-markers.js';
export { setFolderUnlocker } from './at-rest/unlock.js';
export { verifyBundle, type VerifyProblem, type VerifyReport } from './trust/verify-bundle.js';
export {
  validatePam,
  type Finding,
  type ValidateOptions,
  type ValidationReport,
} from './validate/validate-pam.js';
export { exportConversations } from './export/export-conversations.js';
export { renderConversation } from './export/render-conversation.js';
export type { ExportOptions, ExportReport, ExportFormat } from './export/export-conversations.js';
export type { RenderedConversation } from './export/render-conversation.js';
