import { randomUUID } from 'node:crypto';
import {
  MemoryInputError,
  newMemory,
  type MemoryInput,
  type MemorySource,
} from '../model/memory-input.js';
import type { ExtractionMethod, Memory, Relation, RelationType } from '../model/pam.js';
import {
  MIN_ID_PREFIX,
  UnknownIdError,
  resolveConversation,
  resolveMessage,
} from '../stores/resolve-id.js';
import { shortIds } from '../stores/short-ids.js';
import type { MessageRef } from '../stores/store.js';
import type { MemoryVectorNote } from '../recall/memory-vectors.js';
import type { Folder } from '../folder/folder.js';
import {
  writeMemories,
  writeMemoriesWithVectors,
  type MemoryChange,
  type MemoryOptions,
} from './write-memories.js';

/** What to remember, and where it came from. */
export interface RememberInput extends MemoryInput {
  /** The conversation it came from: chatgraph's or the platform's id, or its first 8+ characters. */
  conversationId?: string | undefined;
  /** The message it came from: its id as search gives it (`{conversation}:{message}`), or its start or its own part's as `thread` prints it. */
  messageId?: string | undefined;
  /** How it was made: `manual` (a person, the default) or `llm_inference` (an agent). */
  method?: ExtractionMethod | undefined;
  /**
   * How it relates to memories already there (PAM §13): each by its id or the start of it,
   * `type` read as "the new memory supports (contradicts, extends…) that one".
   */
  relations?: readonly RelateTo[] | undefined;
}

/** A relation a new memory has to one already there. */
export interface RelateTo {
  type: RelationType;
  /** The other memory's id, or its first 8+ characters. */
  to: string;
  confidence?: number | undefined;
}

/** What `remember` did. */
export interface RememberResult {
  memory: Memory;
  /** False when an active memory with the same content was there already (it is returned). */
  created: boolean;
  /** Whether it was embedded at once (found by meaning now) or will be by `chatgraph embed`. */
  vector: MemoryVectorNote;
}

/** No memory has this id. */
export class MemoryNotFoundError extends Error {
  override readonly name = 'MemoryNotFoundError';
}

/**
 * Where a memory came from, checked against the store: the conversation and the message by
 * their ids or the start of them (as `thread` prints them); unknown or ambiguous ids are errors.
 */
async function sourceOf(
  input: RememberInput,
  context: MemoryChange,
): Promise<MemorySource & { platform: string }> {
  const { store } = context;
  const conversationId = input.conversationId?.trim() || undefined;
  const messageId = input.messageId?.trim() || undefined;
  if (conversationId === undefined && messageId === undefined) return { platform: 'local' };
  // A whole message id leads with its conversation's (see message-node-id.ts).
  const leading = messageId?.includes(':') ? messageId.slice(0, messageId.indexOf(':')) : '';
  let conversation = conversationId
    ? await resolveConversation(store, conversationId)
    : leading
      ? await store.conversation(leading)
      : undefined;
  let message: MessageRef | undefined;
  if (messageId !== undefined) {
    // Given its conversation, a message's own id (or its start) is looked for in it alone.
    const within =
      conversation && !messageId.startsWith(`${conversation.id}:`)
        ? `${conversation.id}:${messageId}`
        : messageId;
    message = await resolveMessage(store, within).catch((error: unknown) => {
      if (error instanceof UnknownIdError && conversation)
        throw new MemoryInputError(
          `there is no message with id ${messageId} in conversation ${conversation.id}`,
        );
      throw error;
    });
    if (conversation && message.conversationId !== conversation.id)
      throw new MemoryInputError(
        `there is no message with id ${messageId} in conversation ${conversation.id}`,
      );
    conversation ??= await resolveConversation(store, message.conversationId);
  }
  if (!conversation)
    throw new MemoryInputError('give the conversation or the message it came from');
  const platform =
    context.index.find((e) => e.id === conversation.id)?.platform ?? conversation.source;
  const source = {
    platform: /^[a-z0-9_-]{2,32}$/.test(platform) ? platform : 'local',
    conversationRef: conversation.id,
  };
  if (message === undefined) return source;
  return { ...source, messageRef: message.id.slice(conversation.id.length + 1) };
}

/**
 * Remembers something: a new active PAM memory in the bundle (with the conversation and
 * message it came from, when given) and a Memory node in the store. The same content twice
 * is one memory.
 */
export async function remember(
  folder: Folder,
  input: RememberInput,
  options: MemoryOptions = {},
): Promise<RememberResult> {
  const { result, vector } = await writeMemoriesWithVectors(
    folder,
    async (context) => {
      const related = (input.relations ?? []).map((r) => ({
        ...r,
        to: relatedMemory(context, r.to),
      }));
      const memory = newMemory(
        randomUUID(),
        input,
        await sourceOf(input, context),
        input.method ?? 'manual',
        context.now,
      );
      const same = [...context.memories.values()].find(
        (m) =>
          m.status === 'active' && m.content_hash === memory.content_hash && m.type === memory.type,
      );
      if (same) {
        relate(context, same.id, related);
        return { memory: same, created: false };
      }
      context.memories.set(memory.id, memory);
      relate(context, memory.id, related);
      return { memory, created: true };
    },
    { ...options, embed: true },
  );
  return { ...result, vector };
}

// A memory by its id, or the start of it (8 characters at least) that no other id shares.
function memoryOf(context: MemoryChange, id: string): Memory | undefined {
  const wanted = id.trim();
  const exact = context.memories.get(wanted);
  if (exact || wanted.length < MIN_ID_PREFIX) return exact;
  const found = [...context.memories.values()].filter((m) => m.id.startsWith(wanted));
  // Replaced and retracted ones are history: the one active memory of them is meant.
  const active = found.filter((m) => m.status === 'active');
  if (found.length > 1 && active.length === 1) return active[0];
  if (found.length > 1) {
    const short = shortIds(found.map((m) => m.id));
    const named = found
      .slice(0, 5)
      .map((m) => `${short.get(m.id) ?? m.id} "${m.content.slice(0, 40)}"`)
      .join(', ');
    throw new MemoryInputError(
      `"${wanted}" starts the ids of ${String(found.length)} memories: ${named}${found.length > 5 ? ', …' : ''}; give more characters`,
    );
  }
  return found[0];
}

// The memory a relation names, whatever its status (a forgotten one is still there to refer to).
function relatedMemory(context: MemoryChange, id: string): string {
  const memory = memoryOf(context, id);
  if (!memory) throw new MemoryNotFoundError(`there is no memory with id ${id} to relate to`);
  return memory.id;
}

/** Adds PAM relations from `from`, each once (the same type to the same memory is one). */
function relate(
  context: MemoryChange,
  from: string,
  relations: readonly { type: RelationType; to: string; confidence?: number | undefined }[],
): void {
  const have = new Set([...context.relations.values()].map((r) => `${r.from} ${r.type} ${r.to}`));
  for (const { type, to, confidence } of relations) {
    if (confidence !== undefined && !(confidence >= 0 && confidence <= 1))
      throw new MemoryInputError(
        `a relation's confidence is from 0 to 1, not ${String(confidence)}`,
      );
    const key = `${from} ${type} ${to}`;
    // A memory that is its own evidence says nothing (PAM warns of a self-relation).
    if (to === from || have.has(key)) continue;
    have.add(key);
    const relation: Relation = {
      id: randomUUID(),
      from,
      to,
      type,
      ...(confidence !== undefined ? { confidence } : {}),
      created_at: context.now,
    };
    context.relations.set(relation.id, relation);
  }
}

function activeMemory(context: MemoryChange, id: string): Memory {
  const memory = memoryOf(context, id);
  if (!memory) throw new MemoryNotFoundError(`there is no memory with id ${id}`);
  if (memory.status === 'superseded')
    throw new MemoryInputError(
      `memory ${id} was replaced by ${memory.temporal.superseded_by ?? 'a newer one'}; change that one`,
    );
  if (memory.status !== 'active') throw new MemoryInputError(`memory ${id} is ${memory.status}`);
  return memory;
}

/**
 * Forgets a memory: PAM status `retracted` (the record keeps it, lists and searches leave it
 * out). Returns the retracted memory.
 */
export async function forget(
  folder: Folder,
  id: string,
  options: MemoryOptions = {},
): Promise<Memory> {
  return writeMemories(
    folder,
    (context) => {
      const memory = activeMemory(context, id);
      const retracted: Memory = {
        ...memory,
        status: 'retracted',
        temporal: { ...memory.temporal, updated_at: context.now, valid_until: context.now },
      };
      context.memories.set(memory.id, retracted);
      return retracted;
    },
    options,
  );
}

/** A change to a memory: what is given replaces what it had. */
export type MemoryRevision = { [K in keyof MemoryInput]?: MemoryInput[K] | undefined };

/**
 * Edits a memory without losing what it said: a new memory with the change (same source) and
 * the old one `superseded`, `superseded_by` naming the new, and a PAM `supersedes` relation
 * from the new to the old. Returns both.
 */
export async function reviseMemory(
  folder: Folder,
  id: string,
  revision: MemoryRevision,
  options: MemoryOptions = {},
): Promise<{ previous: Memory; memory: Memory; vector: MemoryVectorNote }> {
  const { result, vector } = await writeMemoriesWithVectors(
    folder,
    (context) => {
      const old = activeMemory(context, id);
      const confidence = revision.confidence ?? old.confidence?.current;
      const memory = newMemory(
        randomUUID(),
        {
          content: revision.content ?? old.content,
          type: revision.type ?? old.type,
          tags: revision.tags ?? old.tags,
          summary: revision.summary ?? old.summary,
          customType: revision.customType ?? old.custom_type,
          ...(confidence !== undefined ? { confidence } : {}),
        },
        {
          platform: old.provenance.platform,
          conversationRef: old.provenance.conversation_ref,
          messageRef: old.provenance.message_ref,
        },
        old.provenance.extraction_method,
        context.now,
      );
      memory.metadata = { ...old.metadata, supersedes: old.id };
      const previous: Memory = {
        ...old,
        status: 'superseded',
        temporal: {
          ...old.temporal,
          updated_at: context.now,
          valid_until: context.now,
          superseded_by: memory.id,
        },
      };
      context.memories.set(old.id, previous);
      context.memories.set(memory.id, memory);
      relate(context, memory.id, [{ type: 'supersedes', to: old.id }]);
      return { previous, memory };
    },
    { ...options, embed: true },
  );
  return { ...result, vector };
}
