import { z } from 'zod';
import { PROVIDERS } from '../api/sources.js';

const ROLES = ['user', 'assistant', 'system', 'tool'] as const;

function key(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[\s_.]+/g, '-');
}

// An agent writes the product's name ("ChatGPT", "Claude", "Claude.ai"); the graph stores the
// source ("chatgpt", "claude-ai"): each provider's source, PAM name and label all lead to it.
// No conversation has the source of a store chatgraph cannot read (Windsurf's), nor `pam`.
const GRAPH_PROVIDERS = PROVIDERS.filter(
  (p) => p.carriesPlatforms !== true && p.agent?.unreadable === undefined,
);
const SOURCE_BY_NAME = new Map(
  GRAPH_PROVIDERS.flatMap((p) => [p.source, p.name, p.label].map((name) => [key(name), p.source])),
);

/** The graph's sources, one per provider. */
export const SOURCES = GRAPH_PROVIDERS.map((p) => p.source) as [string, ...string[]];

/**
 * `source`: one of the providers' sources, taking product names in any case too. Advertised as
 * a string, not an enum: with every coding agent a source, the enum alone cost tools/list more
 * than its 12 KB budget allows, twice over; a wrong value's error lists every source instead.
 */
export function sourceInput(what: string): z.ZodTypeAny {
  return z
    .preprocess(
      (value) => (typeof value === 'string' ? (SOURCE_BY_NAME.get(key(value)) ?? value) : value),
      z.string().refine((value) => SOURCES.includes(value), {
        message: `source is one of ${SOURCES.join(', ')}, or a product name`,
      }),
    )
    .optional()
    .describe(`${what}: chatgpt, claude-code, codex… (as stats lists them) or a product name`);
}

/** `role`: who wrote a message, in any case. */
export function roleInput(what: string): z.ZodTypeAny {
  return z
    .preprocess(
      (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
      z.enum(ROLES),
    )
    .optional()
    .describe(what);
}

/** A date bound, passed to the store's one date parser (which names what was wrong). */
export function dateInput(what: string): z.ZodOptional<z.ZodString> {
  return z.string().optional().describe(`${what}: 2024-05-01, ISO time, 7d, 24h, today`);
}

/** `offset`: where a page starts. */
export const offsetInput = z
  .number()
  .int()
  .min(0)
  .optional()
  .describe("the previous page's nextOffset");

/** `limit`: the largest page, and its default. */
export function limitInput(max: number, fallback: number): z.ZodOptional<z.ZodNumber> {
  return z
    .number()
    .int()
    .min(1)
    .max(max)
    .optional()
    .describe(`default ${String(fallback)}`);
}
