import { z } from 'zod';

/** US dollars per million tokens, as the providers' price pages give them. */
const PerMillion = z.number().finite().nonnegative();

/** One model's prices: input, output, cache read and cache write, per million tokens. */
export const ModelPriceSchema = z.object({
  input: PerMillion,
  output: PerMillion,
  /** Cached input read; when a provider gives none, cache reads have no price. */
  cache_read: PerMillion.optional(),
  /** Cache write (Anthropic's 5-minute cache); when none, cache writes have no price. */
  cache_write: PerMillion.optional(),
  /**
   * The prices for a call whose prompt is over 200K tokens (Anthropic's Sonnet 4 and 4.5,
   * Google's Gemini 2.5 Pro and 3 Pro), when the model has such a tier.
   */
  long: z
    .object({
      input: PerMillion,
      output: PerMillion,
      cache_read: PerMillion.optional(),
      cache_write: PerMillion.optional(),
    })
    .strict()
    .optional(),
});

/** See {@link ModelPriceSchema}. */
export type ModelPrice = z.infer<typeof ModelPriceSchema>;

/** A price table: when its prices were read, where from, and the prices by model name. */
export const PriceTableSchema = z
  .object({
    /** The day the prices were read from their sources (YYYY-MM-DD). */
    date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
    /** Where they were read. */
    source: z.string().min(1),
    models: z.record(z.string().min(1), ModelPriceSchema.strict()),
  })
  .strict();

/** See {@link PriceTableSchema}. */
export type PriceTable = z.infer<typeof PriceTableSchema>;

const ANTHROPIC_SONNET = {
  input: 3,
  output: 15,
  cache_read: 0.3,
  cache_write: 3.75,
  long: { input: 6, output: 22.5, cache_read: 0.6, cache_write: 7.5 },
};
const ANTHROPIC_OPUS_4 = { input: 15, output: 75, cache_read: 1.5, cache_write: 18.75 };
const OPENAI_GPT_5 = { input: 1.25, output: 10, cache_read: 0.125 };

/**
 * The prices shipped with chatgraph (list prices per million tokens, standard tier, no batch
 * discount). A model not named here has no price: a usage report says so and never guesses
 * one from a similar name. A file in the config folder adds models or replaces these.
 */
export const SHIPPED_PRICES: PriceTable = {
  date: '2025-11-25',
  source:
    'anthropic.com/pricing (Claude API), openai.com/api/pricing, ai.google.dev/gemini-api/docs/pricing',
  models: {
    'claude-opus-4-5': { input: 5, output: 25, cache_read: 0.5, cache_write: 6.25 },
    'claude-opus-4-1': ANTHROPIC_OPUS_4,
    'claude-opus-4': ANTHROPIC_OPUS_4,
    'claude-sonnet-4-5': ANTHROPIC_SONNET,
    'claude-sonnet-4': ANTHROPIC_SONNET,
    'claude-3-7-sonnet': { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
    'claude-haiku-4-5': { input: 1, output: 5, cache_read: 0.1, cache_write: 1.25 },
    'claude-3-5-haiku': { input: 0.8, output: 4, cache_read: 0.08, cache_write: 1 },
    'gpt-5': OPENAI_GPT_5,
    'gpt-5-codex': OPENAI_GPT_5,
    'gpt-5.1': OPENAI_GPT_5,
    'gpt-5.1-codex': OPENAI_GPT_5,
    'gpt-5-mini': { input: 0.25, output: 2, cache_read: 0.025 },
    'gpt-5.1-codex-mini': { input: 0.25, output: 2, cache_read: 0.025 },
    'gpt-5-nano': { input: 0.05, output: 0.4, cache_read: 0.005 },
    'gpt-4.1': { input: 2, output: 8, cache_read: 0.5 },
    'gpt-4.1-mini': { input: 0.4, output: 1.6, cache_read: 0.1 },
    'gpt-4o': { input: 2.5, output: 10, cache_read: 1.25 },
    'gpt-4o-mini': { input: 0.15, output: 0.6, cache_read: 0.075 },
    o3: { input: 2, output: 8, cache_read: 0.5 },
    'o4-mini': { input: 1.1, output: 4.4, cache_read: 0.275 },
    'gemini-3-pro-preview': {
      input: 2,
      output: 12,
      cache_read: 0.2,
      long: { input: 4, output: 18, cache_read: 0.4 },
    },
    'gemini-2.5-pro': {
      input: 1.25,
      output: 10,
      cache_read: 0.125,
      long: { input: 2.5, output: 15, cache_read: 0.25 },
    },
    'gemini-2.5-flash': { input: 0.3, output: 2.5, cache_read: 0.03 },
    'gemini-2.5-flash-lite': { input: 0.1, output: 0.4, cache_read: 0.01 },
  },
};

// A dated snapshot of a model in a log: claude-sonnet-4-5-20250929, gpt-4o-2024-08-06.
const SNAPSHOT = /-(\d{8}|\d{4}-\d{2}-\d{2})$/;

/**
 * A model's prices: by its exact name, or by the name without a dated snapshot's date; a
 * provider's prefix (`anthropic/`, `models/`) is not part of the name. Undefined when the
 * table has no price for it.
 */
export function priceOf(table: PriceTable, model: string): ModelPrice | undefined {
  const name = model.trim().toLowerCase().replace(/^.*\//, '');
  if (name === '') return undefined;
  return table.models[name] ?? table.models[name.replace(SNAPSHOT, '')];
}

/**
 * The shipped table with a file's table over it (its models replace the shipped ones of the
 * same name); its date and source are the file's.
 */
export function overlaidPrices(shipped: PriceTable, file: PriceTable | undefined): PriceTable {
  if (file === undefined) return shipped;
  return {
    date: file.date,
    source: `${file.source}; otherwise ${shipped.source} (${shipped.date})`,
    models: { ...shipped.models, ...file.models },
  };
}
