/**
 * The web API's requests as zod schemas: query strings (each parameter's first value, as
 * `URLSearchParams.get` gives it) and JSON bodies. Every refusal names its parameter. Like
 * api-responses.ts this imports zod alone, so the browser's compilation can read its types.
 */
import { z } from 'zod';
import { API_MEMORY_TYPES } from './api-responses.js';

/** Messages per page unless the browser asks for another size, and the most it may ask for. */
export const MESSAGE_PAGE = 1000;
export const MAX_MESSAGE_PAGE = 5000;

/** Words: trimmed, and absent when blank. */
const text = z
  .string()
  .optional()
  .transform((value) => value?.trim() || undefined);

/** A whole number (past 2^53 a number is no longer whole in JavaScript, nor a row count). */
function whole(name: string, fallback: number, min?: number, max?: number) {
  const range =
    min === undefined || max === undefined
      ? ''
      : max === Number.MAX_SAFE_INTEGER
        ? `, ${min} or more`
        : ` from ${min} to ${max}`;
  return z
    .string()
    .optional()
    .transform((value, context) => {
      if (value === undefined || value === '') return fallback;
      const number = Number(value);
      if (
        !Number.isSafeInteger(number) ||
        (min !== undefined && number < min) ||
        (max !== undefined && number > max)
      ) {
        context.addIssue({ code: 'custom', message: `${name} must be a whole number${range}` });
        return z.NEVER;
      }
      return number;
    });
}

/** A flag: set by `1`. */
const flag = z
  .string()
  .optional()
  .transform((value) => value === '1');

function oneOf<const T extends readonly [string, ...string[]]>(
  name: string,
  values: T,
  said: string,
) {
  return z
    .string()
    .optional()
    .transform((value, context): T[number] | undefined => {
      if (value === undefined || value === '') return undefined;
      const found = values.find((v) => v === value);
      if (found === undefined) context.addIssue({ code: 'custom', message: `${name} ${said}` });
      return found;
    });
}

/** GET /api/conversations */
export const conversationsQuery = z.object({
  source: text,
  since: text,
  until: text,
  title: text,
  tools: flag,
  branches: flag,
  // The CLI's sorts (updated, created, messages, title; last updated first, as `list`) and
  // the names this route took before.
  sort: oneOf(
    'sort',
    ['updated', 'created', 'messages', 'title', 'newest', 'oldest', 'most-messages'],
    'takes updated, created, messages, title, newest, oldest or most-messages',
  ).transform((sort) => LIST_SORTS[sort ?? 'updated']),
  minMessages: whole('minMessages', 0, 0, Number.MAX_SAFE_INTEGER),
  /** A page's nextCursor: the page after it. */
  after: text,
  offset: whole('offset', 0, 0, Number.MAX_SAFE_INTEGER),
  limit: whole('limit', 50, 1, Number.MAX_SAFE_INTEGER),
});

// The store's names for the sorts (as `chatgraph list` maps its own).
const LIST_SORTS = {
  updated: 'updated',
  created: 'newest',
  messages: 'most-messages',
  title: 'title',
  newest: 'newest',
  oldest: 'oldest',
  'most-messages': 'most-messages',
} as const;

/** GET /api/conversations/:id */
export const conversationPageQuery = z.object({
  offset: whole('offset', 0, 0, Number.MAX_SAFE_INTEGER),
  limit: whole('limit', MESSAGE_PAGE, 1, MAX_MESSAGE_PAGE),
});

/** GET /api/search */
export const searchQuery = z.object({
  q: z
    .string()
    .optional()
    .transform((q) => q ?? ''),
  mode: oneOf('mode', ['keyword', 'semantic', 'hybrid'], 'takes keyword, semantic or hybrid'),
  source: text,
  role: text,
  since: text,
  until: text,
  limit: whole('limit', 30, 1, Number.MAX_SAFE_INTEGER),
  offset: whole('offset', 0, 0, Number.MAX_SAFE_INTEGER),
});

/** GET /api/similar/:messageId */
export const similarQuery = z.object({
  limit: whole('limit', 10, 1, Number.MAX_SAFE_INTEGER).transform((limit) => Math.min(50, limit)),
});

/** GET /api/graph/:id */
export const graphQuery = z.object({ message: text });

/** GET /api/conversations/:id/export */
export const conversationExportQuery = z.object({
  format: z.enum(['markdown', 'html'], {
    errorMap: () => ({ message: 'format takes markdown or html' }),
  }),
});

/** GET /api/attachment/:id */
export const attachmentQuery = z.object({
  ref: z
    .string()
    .optional()
    .transform((ref) => ref ?? ''),
});

/** A count of memories: digits only. */
function memoryCount(name: string) {
  return z
    .string()
    .optional()
    .transform((value, context) => {
      if (value === undefined || value === '') return undefined;
      if (!/^\d{1,9}$/.test(value)) {
        context.addIssue({ code: 'custom', message: `${name} must be a whole number` });
        return z.NEVER;
      }
      return Number(value);
    });
}

/** POST /api/import: `restore=1` brings back the conversations deleted, as `import --restore` does. */
export const importQuery = z.object({ restore: flag });

/** GET /api/memories */
export const memoriesQuery = z.object({
  query: text,
  type: oneOf('type', API_MEMORY_TYPES, `is one of ${API_MEMORY_TYPES.join(', ')}`),
  tag: text,
  limit: memoryCount('limit'),
  offset: memoryCount('offset'),
  all: flag,
});

/** POST /api/memories */
export const rememberBody = z
  .object({
    content: z.string().min(1),
    type: z.enum(API_MEMORY_TYPES),
    tags: z.array(z.string()).max(50).optional(),
    confidence: z.number().min(0).max(1).optional(),
    conversationId: z.string().min(1).optional(),
    messageId: z.string().min(1).optional(),
  })
  .strict();

/** PUT /api/memories/:id */
export const reviseBody = z
  .object({
    content: z.string().min(1).optional(),
    type: z.enum(API_MEMORY_TYPES).optional(),
    tags: z.array(z.string()).max(50).optional(),
    confidence: z.number().min(0).max(1).optional(),
  })
  .strict();

/** POST /api/cypher */
export const cypherBody = z.object({
  query: z
    .string({ required_error: 'give a query' })
    .refine((q) => q.trim() !== '', 'give a query'),
  params: z.record(z.unknown(), { invalid_type_error: 'params must be a JSON object' }).optional(),
});

export type RememberBody = z.input<typeof rememberBody>;
export type ReviseBody = z.input<typeof reviseBody>;
export type CypherBody = z.input<typeof cypherBody>;

/** GET /api/usage: the filters of `chatgraph usage` (days in the browser's time zone, `tz`). */
export const usageQuery = z.object({
  by: oneOf(
    'by',
    ['day', 'week', 'month', 'session', 'model', 'source', 'project'],
    'takes day, week, month, session, model, source or project',
  ).transform((by) => by ?? 'day'),
  breakdown: flag,
  source: text,
  project: text,
  since: text,
  until: text,
  tz: text,
  /** `usage --estimate`: chat exports' tokens estimated from their text length. */
  estimate: flag,
});
