import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { ConversationIndexEntry, Memory } from '../model/pam.js';
import { MEMORY_STORE_FILE } from './layout.js';
import { MEMORY_TYPES } from '../model/memory-input.js';

const optional = z.string().nullish();

// What chatgraph reads of a memory: PAM's fields, nulls read as absent (chatgraph writes no
// nulls, see Memory), anything else kept as written.
const memorySchema = z
  .object({
    id: z.string().min(1),
    type: z.enum(MEMORY_TYPES),
    custom_type: optional,
    status: z.enum(['active', 'superseded', 'deprecated', 'retracted', 'archived']).nullish(),
    content: z.string().min(1),
    content_hash: z.string(),
    summary: optional,
    tags: z.array(z.string()).nullish(),
    confidence: z
      .object({ initial: z.number().nullish(), current: z.number().nullish() })
      .passthrough()
      .nullish(),
    temporal: z
      .object({
        created_at: z.string(),
        updated_at: optional,
        valid_from: optional,
        valid_until: optional,
        superseded_by: optional,
      })
      .passthrough(),
    provenance: z
      .object({
        platform: z.string(),
        platform_user_id: optional,
        conversation_ref: optional,
        message_ref: optional,
        extraction_method: z
          .enum([
            'llm_inference',
            'explicit_user_input',
            'api_export',
            'browser_extraction',
            'manual',
          ])
          .nullish(),
        extracted_at: optional,
        extractor: optional,
      })
      .passthrough(),
  })
  .passthrough();

const storeSchema = z
  .object({
    owner: z.object({ id: z.string(), created_at: z.string() }).passthrough(),
    memories: z.array(memorySchema),
    conversations_index: z.array(z.object({ id: z.string() }).passthrough()).nullish(),
  })
  .passthrough();

/** The bundle's memories and what else an edit keeps of `memory-store.json`. */
export interface MemoryStoreFile {
  owner: { id: string; created_at: string };
  memories: Memory[];
  index: ConversationIndexEntry[];
}

/** A `memory-store.json` that is not what PAM says it is. */
export class MemoryStoreError extends Error {
  override readonly name = 'MemoryStoreError';
}

/** Drops null and undefined fields, so a memory read back is written back the same. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== null && v !== undefined),
  ) as T;
}

function toMemory(raw: z.infer<typeof memorySchema>): Memory {
  const memory = compact({
    ...raw,
    status: raw.status ?? 'active',
    tags: raw.tags ?? [],
    temporal: compact(raw.temporal),
    provenance: compact({
      ...raw.provenance,
      extraction_method: raw.provenance.extraction_method ?? 'api_export',
      extractor: raw.provenance.extractor ?? 'unknown/0.0.0',
    }),
  }) as Memory;
  if (raw.confidence)
    memory.confidence = compact(raw.confidence) as NonNullable<Memory['confidence']>;
  return memory;
}

/** Reads the bundle's `memory-store.json`, or undefined when the bundle has none yet. */
export async function readMemoryStore(bundle: string): Promise<MemoryStoreFile | undefined> {
  const file = join(bundle, MEMORY_STORE_FILE);
  const text = await readFile(file, 'utf8').catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  });
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new MemoryStoreError(
      `${file} is not JSON: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const parsed = storeSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new MemoryStoreError(
      `${file} is not a PAM memory store (${issue?.path.join('.') ?? ''}: ${issue?.message ?? 'bad shape'})`,
    );
  }
  return {
    owner: { id: parsed.data.owner.id, created_at: parsed.data.owner.created_at },
    memories: parsed.data.memories.map(toMemory),
    index: (parsed.data.conversations_index ?? []) as unknown as ConversationIndexEntry[],
  };
}
