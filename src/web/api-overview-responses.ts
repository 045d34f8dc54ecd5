/**
 * The answers of the history views: the Overview's totals and months, and the map of topics.
 * zod alone is imported here (see api-responses.ts).
 */
import { z } from 'zod';

const count = z.number().int().nonnegative();

export const stats = z
  .object({
    conversations: count,
    messages: count,
    bySource: z.array(
      z.object({ source: z.string(), conversations: count, messages: count }).strict(),
    ),
    // Undated messages are counted under no month (the embedded store's null).
    byMonth: z.array(
      z
        .object({
          month: z.string().nullable(),
          source: z.string(),
          messages: count,
          conversations: count,
        })
        .strict(),
    ),
    byRole: z.array(z.object({ role: z.string(), messages: count }).strict()),
    byModel: z.array(z.object({ model: z.string(), messages: count }).strict()),
  })
  .strict();

export const topicMap = z
  .object({
    embedded: z.boolean(),
    model: z.string().nullable(),
    conversations: count,
    capped: z.boolean(),
    clusters: z.array(
      z
        .object({
          id: count,
          name: z.string(),
          words: z.array(z.string()),
          size: count,
          conversations: z.array(
            z.object({ id: z.string(), title: z.string(), source: z.string() }).strict(),
          ),
          central: z.object({ id: z.string(), title: z.string() }).strict().nullable(),
          nearest: z.object({ id: count, similarity: z.number() }).strict().nullable(),
        })
        .strict(),
    ),
    milliseconds: z.number().nonnegative(),
  })
  .strict();

export type Stats = z.infer<typeof stats>;
export type TopicMapView = z.infer<typeof topicMap>;

const sums = {
  input_tokens: count,
  output_tokens: count,
  cache_creation_tokens: count,
  cache_read_tokens: count,
  reasoning_tokens: count,
  total_tokens: count,
  cost_usd: z.number().nullable(),
  unpriced_models: z.array(z.string()),
};

/** GET /api/usage: the report of `chatgraph usage --json`. */
export const usage = z
  .object({
    by: z.string(),
    timeZone: z.string(),
    rows: z.array(
      z
        .object({
          period: z.string(),
          model: z.string().nullable(),
          source: z.string().nullable(),
          title: z.string().optional(),
          ...sums,
          estimated: z.literal(true).optional(),
        })
        .strict(),
    ),
    total: z.object(sums).strict(),
    uncounted: z.array(
      z
        .object({
          source: z.string(),
          conversations: count,
          of: count,
          models: z.array(z.object({ model: z.string(), messages: count }).strict()),
        })
        .strict(),
    ),
    estimated: z
      .object({
        total: z.object(sums).strict(),
        sources: z.array(z.object({ source: z.string(), conversations: count }).strict()),
        method: z.string(),
      })
      .strict()
      .optional(),
    prices: z
      .object({ date: z.string(), source: z.string(), unpriced_models: z.array(z.string()) })
      .strict(),
  })
  .strict();

export type UsageView = z.infer<typeof usage>;
