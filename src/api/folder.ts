/**
 * `chatgraph/folder`: the option and result types of `DataFolder`'s verbs, so a caller can name
 * what it passes to `import`, `reindex`, `push`, `delete`, `embed`, `follow`, `sign`, `encrypt`,
 * `exportPam`, `exportConversations`, `doctor` and `attachment`, and what they give back; and the
 * private temporary folders a shell reads into (removed on signals too, swept after a kill -9).
 */
export type {
  FolderDeleteOptions as DeleteOptions,
  FolderExportOptions as ExportOptions,
  FolderFollowOptions as FollowOptions,
  FolderImportOptions as ImportOptions,
  FolderLoadOptions as LoadOptions,
} from '../data-folder/data-folder.js';
export type { SignOptions, SignResult } from '../trust/sign-bundle.js';
export type { EncryptOptions } from '../folder/encrypt-folder.js';
export type { DoctorOptions } from '../doctor/doctor.js';
export type { BundleLoad } from '../data-folder/import-exports.js';
export type { DeleteResult } from '../data-folder/delete-conversation.js';
export type { ExportPamOptions, ExportPamReport } from '../data-folder/export-pam.js';
export type { StoredAttachment } from '../data-folder/stored-attachment.js';
export { RestoreError } from '../data-folder/restore-rules.js';
export type { Tombstone } from '../folder/deleted-conversations.js';
export type { EmbedStoreOptions } from '../recall/embed-store.js';
export { makeTempFolder, removeTempFolder, sweepTempFolders } from '../read/temp-folders.js';
export type { TempKind } from '../read/temp-folders.js';
