import canonicalize from 'canonicalize';
import { sha256 } from '../model/content-hash.js';
import { stableId } from '../model/ids.js';
import { integrityChecksum } from '../model/integrity.js';
import type {
  Conversation,
  ConversationIndexEntry,
  Memory,
  MemoryStore,
  Relation,
} from '../model/pam.js';
import { PAM_SCHEMA_VERSION } from '../model/pam.js';
import { toPydanticTime } from '../model/time.js';
import { IMPORTER } from '../model/version.js';
import { conversationRef } from '../model/bundle-refs.js';

/** The index entry of a conversation, consistent with its file (title, count, time). */
export function toIndexEntry(conversation: Conversation): ConversationIndexEntry {
  return {
    id: conversation.id,
    platform: conversation.provider.name,
    title: conversation.title,
    temporal: { ...conversation.temporal },
    message_count: conversation.messages.length,
    tags: [...conversation.tags],
    storage: { type: 'file', ref: conversationRef(conversation.id), format: 'json' },
  };
}

/** Assembles `memory-store.json`: memories and index sorted, integrity per spec §15. */
export function toMemoryStore(input: {
  ownerId: string;
  ownerCreatedAt: string;
  exportDate: string;
  memories: Iterable<Memory>;
  relations?: Iterable<Relation> | undefined;
  index: Iterable<ConversationIndexEntry>;
}): MemoryStore {
  const memories = [...input.memories]
    .map(storedMemory)
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // PAM requires both ends to be memories of the file: a relation to one left out (an import
  // that leaves some out) is left out with it, so the file stays valid.
  const ids = new Set(memories.map((m) => m.id));
  const relations = [...(input.relations ?? [])]
    .filter((r) => ids.has(r.from) && ids.has(r.to))
    .map((r) => ({ ...r, created_at: toPydanticTime(r.created_at) }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const index = [...input.index].sort((a, b) =>
    a.temporal.created_at < b.temporal.created_at
      ? -1
      : a.temporal.created_at > b.temporal.created_at
        ? 1
        : a.id < b.id
          ? -1
          : a.id > b.id
            ? 1
            : 0,
  );
  const checksum = integrityChecksum(memories);
  const indexDigest = sha256(
    index
      .map(
        (e) =>
          `${e.id}\u0000${e.title ?? ''}\u0000${e.message_count}\u0000${e.temporal.updated_at ?? ''}`,
      )
      .join('\n'),
  );
  return {
    schema: 'portable-ai-memory',
    schema_version: PAM_SCHEMA_VERSION,
    spec_uri: 'https://portable-ai-memory.org/spec/v1.0',
    // The integrity checksum covers memories alone; a file whose relations changed is another
    // export too (a journal names the file it extends by this id). Without relations, the id is
    // the one it was before there were any.
    export_id:
      relations.length > 0
        ? stableId(
            'export',
            input.ownerId,
            checksum,
            indexDigest,
            sha256(JSON.stringify(relations)),
          )
        : stableId('export', input.ownerId, checksum, indexDigest),
    exported_by: IMPORTER,
    export_date: input.exportDate,
    owner: { id: input.ownerId, created_at: input.ownerCreatedAt },
    memories,
    relations,
    conversations_index: index,
    integrity: { canonicalization: 'RFC8785', checksum, total_memories: memories.length },
    export_type: 'full',
  };
}

/**
 * A memory as `memory-store.json` holds it, its times in Pydantic's form: the official SDK
 * re-serialises memories before hashing them, so any other form makes its integrity check fail
 * (pam-notes.md, issue 11). Every other field is kept as it is (an edit's `superseded_by`).
 */
export function storedMemory(memory: Memory): Memory {
  const temporal: Memory['temporal'] = { ...memory.temporal };
  for (const key of ['created_at', 'updated_at', 'valid_from', 'valid_until'] as const) {
    const value = temporal[key];
    if (value !== undefined) temporal[key] = toPydanticTime(value);
  }
  const provenance = { ...memory.provenance };
  if (provenance.extracted_at !== undefined)
    provenance.extracted_at = toPydanticTime(provenance.extracted_at);
  if (!memory.access) return { ...memory, temporal, provenance };
  // Pydantic writes an access block with its defaults filled in; so is it hashed.
  const access = {
    ...memory.access,
    visibility: memory.access.visibility ?? 'private',
    exportable: memory.access.exportable ?? true,
    shared_with: memory.access.shared_with ?? [],
  };
  return { ...memory, temporal, provenance, access };
}

/** Whether two memories are one as the bundle writes them (times in the SDK's form, keys in any order). */
export function sameMemory(a: Memory, b: Memory): boolean {
  return canonicalize(storedMemory(a)) === canonicalize(storedMemory(b));
}
