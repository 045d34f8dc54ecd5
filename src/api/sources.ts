/** `chatgraph/sources`: what chatgraph reads: the providers, the coding agents' stores on this machine and sample exports. */
export { PROVIDERS, findProvider } from '../providers/registry.js';
export type { Provider } from '../providers/provider.js';
export { NotAnExportError } from '../pipeline/not-an-export-error.js';
export { claudeCodeProjectDirs } from '../live/claude-code-home.js';
export { findAgentStores } from '../discover/find-agent-stores.js';
export type { AgentStoreFound, FindAgentStoresOptions } from '../discover/find-agent-stores.js';
export { writeSamples } from '../sample/write-samples.js';
