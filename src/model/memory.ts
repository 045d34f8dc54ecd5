import { IMPORTER } from './version.js';
import { contentHash } from './content-hash.js';
import type { JsonObject, Memory, MemoryType } from './pam.js';

/** What a provider knows of a memory. */
export interface MemoryDraft {
  id: string;
  type: MemoryType;
  content: string;
  summary?: string | undefined;
  tags: string[];
  createdAt: string;
  updatedAt?: string | undefined;
  platform: string;
  platformUserId?: string | undefined;
  metadata?: JsonObject | undefined;
}

/** A PAM memory with its content hash, omitting empty optional fields (see `Memory`). */
export function toMemory(draft: MemoryDraft): Memory {
  const memory: Memory = {
    id: draft.id,
    type: draft.type,
    status: 'active',
    content: draft.content,
    content_hash: contentHash(draft.content),
    tags: [...new Set(draft.tags)],
    temporal: { created_at: draft.createdAt },
    provenance: { platform: draft.platform, extraction_method: 'api_export', extractor: IMPORTER },
  };
  if (draft.summary) memory.summary = draft.summary;
  if (draft.updatedAt) memory.temporal.updated_at = draft.updatedAt;
  if (draft.platformUserId) memory.provenance.platform_user_id = draft.platformUserId;
  if (draft.metadata && Object.keys(draft.metadata).length > 0) memory.metadata = draft.metadata;
  return memory;
}
