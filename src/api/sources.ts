/** `chatgraph/sources`: what chatgraph reads: the providers, Claude Code's folders and sample exports. */
export { PROVIDERS, findProvider } from '../providers/registry.js';
export type { Provider } from '../providers/provider.js';
export { NotAnExportError } from '../pipeline/not-an-export-error.js';
export { claudeCodeProjectDirs } from '../live/claude-code-home.js';
export { writeSamples } from '../sample/write-samples.js';
