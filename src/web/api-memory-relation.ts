/**
 * A memory's PAM relation as the API gives it (in a memory of a list): its type, which way it
 * goes, and the other memory. Like api-responses.ts, this imports zod alone (the browser's
 * compilation reads it).
 */
import { z } from 'zod';

/** PAM's memory statuses. */
export const memoryStatus = z.enum(['active', 'superseded', 'deprecated', 'retracted', 'archived']);

/** `out`: this memory {type} the other ("supports it"); `in`: the other {type} this one. */
export const memoryRelation = z
  .object({
    type: z.enum([
      'supports',
      'contradicts',
      'extends',
      'supersedes',
      'related_to',
      'derived_from',
    ]),
    direction: z.enum(['out', 'in']),
    memoryId: z.string(),
    content: z.string(),
    status: memoryStatus,
  })
  .strict();
