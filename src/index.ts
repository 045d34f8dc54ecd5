/** chatgraph's public API: the CLI, the web app and the MCP server use only what is here. */
export { convertExports } from './pipeline.js';
export type { ConvertOptions, ConversationSink, ImportProgress } from './pipeline.js';
export { NotAnExportError } from './not-an-export-error.js';
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
export { VERSION } from './version.js';
