/**
 * chatgraph's public API, the names most callers need: the data folder and its verbs, the
 * conversion of exports to PAM, and the types they return. Seven subpaths in `src/api/` group the
 * rest by role (`chatgraph/folder`, `/query`, `/view`, `/memory`, `/models`, `/trust`,
 * `/sources`), and the
 * stores' classes are in `chatgraph/sqlite` and `chatgraph/neo4j`. The CLI, the web app and the
 * MCP server use only these entry points (the dependency rule says so); `test/public-api.test.ts`
 * pins every name, types included, and this file to at most 25.
 * Importing it loads no store: the data folder loads SQLite or the Neo4j driver when it opens one.
 */
export { DataFolder } from './data-folder/data-folder.js';
export type { DataFolderOptions } from './data-folder/data-folder.js';
export { resolveDataDir } from './folder/data-dir.js';
export { DataFolderMissingError } from './doctor/doctor.js';
export { WriteLockBusyError, waitingMessage } from './folder/write-lock.js';
export type { LockHolder } from './folder/write-lock.js';
export { convertExports } from './pipeline/convert-exports.js';
export type { ConvertOptions, ImportProgress } from './pipeline/convert-options.js';
export type { ImportReport } from './pipeline/import-report.js';
export type { ImportResult } from './data-folder/import-exports.js';
export { exitCodeOf, lostCount } from './pipeline/exit-code.js';
export type { Diagnostic } from './model/diagnostic.js';
export { VERSION } from './model/version.js';
export { neo4jTarget } from './stores/neo4j/neo4j-target.js';
export type { Neo4jTarget } from './stores/neo4j/neo4j-target.js';
export type { StoreReader } from './stores/store-reader.js';
export type { Conversation, Message, Memory } from './model/pam.js';
export type { Follower } from './live/follower.js';
export type { FollowEvent } from './live/follow-event.js';
