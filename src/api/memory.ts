/** `chatgraph/memory`: the memories people and agents keep: their types, limits, listing and errors. */
export {
  MEMORY_TYPES,
  MEMORY_CONTENT_LIMIT,
  MEMORY_TAG_LIMIT,
  MemoryInputError,
} from '../model/memory-input.js';
export { RELATION_TYPES } from '../model/pam.js';
export type { MemoryType } from '../model/pam.js';
export { MEMORY_PAGE, memoryView } from '../memory/list-memories.js';
export type { MemoryPage, MemoryQuery, MemoryView } from '../memory/list-memories.js';
export { MemoryNotFoundError } from '../memory/remember.js';
export type { MemoryRevision, RememberInput, RememberResult } from '../memory/remember.js';
export type { RecentActivity, RecentOptions } from '../memory/recent-activity.js';
export type { MemoryVectorNote } from '../recall/memory-vectors.js';
export { MemoryStoreError } from '../bundle/read-memory-store.js';
export type { MemoryOptions } from '../data-folder/data-folder.js';
