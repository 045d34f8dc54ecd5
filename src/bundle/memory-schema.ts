import { z } from 'zod';
import { RELATION_TYPES, type Memory, type Relation } from '../model/pam.js';
import { MEMORY_TYPES } from '../model/memory-input.js';

const optional = z.string().nullish();

/**
 * What chatgraph reads of a memory (in `memory-store.json` and its journal): PAM's fields,
 * nulls read as absent (chatgraph writes no nulls, see Memory), anything else kept as written.
 */
export const memorySchema = z
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

/** A PAM relation as read (`$defs.RelationObject`); only `confidence` may be left out. */
export const relationSchema = z
  .object({
    id: z.string().min(1),
    from: z.string().min(1),
    to: z.string().min(1),
    type: z.enum(RELATION_TYPES),
    confidence: z.number().min(0).max(1).nullish(),
    created_at: z.string(),
  })
  .strict()
  .transform((raw): Relation => ({
    id: raw.id,
    from: raw.from,
    to: raw.to,
    type: raw.type,
    ...(raw.confidence !== undefined ? { confidence: raw.confidence } : {}),
    created_at: raw.created_at,
  }));

/** Drops null and undefined fields, so a memory read back is written back the same. */
function compact<T extends object>(value: T): T {
  return Object.fromEntries(
    Object.entries(value).filter(([, v]) => v !== null && v !== undefined),
  ) as T;
}

/** A memory as read, with PAM's defaults where the file left them out. */
export function toMemory(raw: z.infer<typeof memorySchema>): Memory {
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

/** A `memory-store.json` (or its journal) that is not what PAM says it is. */
export class MemoryStoreError extends Error {
  override readonly name = 'MemoryStoreError';
}
