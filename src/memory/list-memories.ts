import { readMemoryStore } from '../bundle/read-memory-store.js';
import type { Folder } from '../folder/folder.js';
import { MemoryInputError, toTag } from '../model/memory-input.js';
import type { Memory, MemoryStatus, MemoryType, Relation, RelationType } from '../model/pam.js';
import { pageBounds } from '../stores/page-bounds.js';
import type { ConversationReader, MemoryHolder } from '../stores/store.js';

/** Which memories to list. */
export interface MemoryQuery {
  /** Words (the search syntax): only memories matching them, best first. */
  query?: string | undefined;
  type?: MemoryType | undefined;
  tag?: string | undefined;
  /** `active` (the default), or every status (the history: superseded and retracted too). */
  status?: 'active' | 'all' | undefined;
  limit?: number | undefined;
  offset?: number | undefined;
}

/** A memory as lists show it: PAM's fields in camelCase, and its source resolved. */
export interface MemoryView {
  id: string;
  type: MemoryType;
  customType?: string;
  status: MemoryStatus;
  content: string;
  summary?: string;
  tags: string[];
  confidence?: number;
  createdAt: string;
  updatedAt?: string;
  supersededBy?: string;
  supersedes?: string;
  platform: string;
  extractionMethod: string;
  /** The conversation (and message) it came from, when it came from one. */
  source?: { conversationId: string; messageId?: string; title?: string };
  /** The matching passage, for a search (matched words between MATCH_START and MATCH_END). */
  snippet?: string;
  /** Its PAM relations, both ways (in lists): `out` is "this memory {type} that one". */
  relations?: MemoryRelationView[];
}

/** One relation of a memory as lists show it: the type, which way, and the other memory. */
export interface MemoryRelationView {
  type: RelationType;
  direction: 'out' | 'in';
  memoryId: string;
  content: string;
  status: MemoryStatus;
}

/** Each memory's relations both ways, with the other memory's text (what a list shows). */
function relationViews(
  memories: readonly Memory[],
  relations: readonly Relation[],
): Map<string, MemoryRelationView[]> {
  const byId = new Map(memories.map((m) => [m.id, m]));
  const views = new Map<string, MemoryRelationView[]>();
  const add = (id: string, view: MemoryRelationView): void => {
    views.set(id, [...(views.get(id) ?? []), view]);
  };
  for (const r of relations) {
    const from = byId.get(r.from);
    const to = byId.get(r.to);
    if (!from || !to) continue;
    add(r.from, {
      type: r.type,
      direction: 'out',
      memoryId: to.id,
      content: to.content,
      status: to.status,
    });
    add(r.to, {
      type: r.type,
      direction: 'in',
      memoryId: from.id,
      content: from.content,
      status: from.status,
    });
  }
  return views;
}

/** A page of memories. */
export interface MemoryPage {
  /** Memories matching, all pages. */
  total: number;
  offset: number;
  items: MemoryView[];
}

/** The default and largest page of memories. */
export const MEMORY_PAGE = { default: 20, max: 200 } as const;

/** A memory as lists show it (its source's title looked up in the store). */
export async function memoryView(memory: Memory, store?: ConversationReader): Promise<MemoryView> {
  const view: MemoryView = {
    id: memory.id,
    type: memory.type,
    status: memory.status,
    content: memory.content,
    tags: [...memory.tags],
    createdAt: memory.temporal.created_at,
    platform: memory.provenance.platform,
    extractionMethod: memory.provenance.extraction_method,
  };
  if (memory.custom_type !== undefined) view.customType = memory.custom_type;
  if (memory.summary !== undefined) view.summary = memory.summary;
  if (memory.confidence !== undefined) view.confidence = memory.confidence.current;
  if (memory.temporal.updated_at !== undefined) view.updatedAt = memory.temporal.updated_at;
  if (memory.temporal.superseded_by !== undefined)
    view.supersededBy = memory.temporal.superseded_by;
  const supersedes = memory.metadata?.supersedes;
  if (typeof supersedes === 'string') view.supersedes = supersedes;
  const conversation = memory.provenance.conversation_ref;
  if (conversation !== undefined) {
    view.source = { conversationId: conversation };
    const message = memory.provenance.message_ref;
    if (message !== undefined) view.source.messageId = `${conversation}:${message}`;
    const info = await store?.conversation(conversation);
    if (info) view.source.title = info.name;
  }
  return view;
}

/** The bundle's memories, newest first (the record: the store only ranks a search). */
export async function readMemories(folder: Folder): Promise<Memory[]> {
  return (await readRecord(folder)).memories;
}

async function readRecord(folder: Folder): Promise<{ memories: Memory[]; relations: Relation[] }> {
  await folder.unlock();
  const file = await readMemoryStore(folder.bundle);
  const memories = (file?.memories ?? []).sort((a, b) =>
    a.temporal.created_at < b.temporal.created_at
      ? 1
      : a.temporal.created_at > b.temporal.created_at
        ? -1
        : 0,
  );
  return { memories, relations: file?.relations ?? [] };
}

/**
 * Memories filtered by words, type and tag, a page at a time: active ones unless `status` is
 * `all`. With words, best match first (the store's word index); else newest first.
 */
export async function listMemories(
  store: MemoryHolder & ConversationReader,
  folder: Folder,
  query: MemoryQuery = {},
): Promise<MemoryPage> {
  const { limit, offset } = pageBounds(
    query.limit ?? MEMORY_PAGE.default,
    query.offset ?? 0,
    'limit',
  );
  if (limit > MEMORY_PAGE.max)
    throw new MemoryInputError(`limit is at most ${String(MEMORY_PAGE.max)}, not ${String(limit)}`);
  const tag = query.tag !== undefined ? toTag(query.tag) : undefined;
  const record = await readRecord(folder);
  let memories = record.memories;
  const related = relationViews(record.memories, record.relations);
  const snippets = new Map<string, string>();
  if (query.query !== undefined && query.query.trim() !== '') {
    const matches = await store.memories.search(query.query, Math.max(memories.length, 1), {
      all: query.status === 'all',
    });
    const byId = new Map(memories.map((m) => [m.id, m]));
    memories = matches.flatMap((m) => {
      snippets.set(m.id, m.snippet);
      const memory = byId.get(m.id);
      return memory ? [memory] : [];
    });
  }
  const kept = memories.filter(
    (m) =>
      (query.status === 'all' || m.status === 'active') &&
      (query.type === undefined || m.type === query.type) &&
      (tag === undefined || m.tags.includes(tag)),
  );
  const items = await Promise.all(
    kept.slice(offset, offset + limit).map(async (m) => {
      const view = await memoryView(m, store);
      const relations = related.get(m.id);
      if (relations) view.relations = relations;
      const snippet = snippets.get(m.id);
      return snippet !== undefined ? { ...view, snippet } : view;
    }),
  );
  return { total: kept.length, offset, items };
}
