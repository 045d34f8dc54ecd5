/** `chatgraph/sync`: one history across a person's machines through a folder they already sync (docs/sync.md). */
export { syncFolder } from '../sync/sync-folder.js';
export type { SyncOptions, SyncReport, SyncProblem, Received } from '../sync/sync-folder.js';
export type { SentExport } from '../sync/write-export.js';
export {
  configDir,
  inviteMachine,
  joinGroup,
  openGroup,
  SyncRefusal,
} from '../sync/group/index.js';
