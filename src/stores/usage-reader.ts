import { z } from 'zod';

/** Which model calls a usage report counts: by source, project and the time they were made. */
export interface UsageFilter {
  source?: string | undefined;
  /** Words a project's name or path contains (case-insensitive), as `list --project`. */
  project?: string | undefined;
  /** A stored timestamp (UTC, as `dateBound` gives): calls at or after it. */
  since?: string | undefined;
  /** A stored timestamp: calls before it. */
  until?: string | undefined;
}

/**
 * A call whose prompt (input, cache reads and writes) is over this many tokens is billed at a
 * model's long-context price where it has one (Anthropic's and Google's 200K tier).
 */
export const LONG_PROMPT_TOKENS = 200_000;

/**
 * The tokens of the calls of one conversation and model in one quarter hour (UTC), apart for
 * calls with a long prompt: the grain a store sums at, fine enough for any time zone's days
 * (every zone's offset is a whole number of quarter hours) and coarse enough to stay small.
 */
export const TokenSlotRow = z.object({
  /** The quarter hour's start, `YYYY-MM-DDTHH:MM` in UTC; '' for calls with no time. */
  slot: z.string(),
  conversationId: z.string(),
  /** '' when the log names no model. */
  model: z.string(),
  long: z.boolean(),
  input: z.number(),
  output: z.number(),
  cacheRead: z.number(),
  cacheCreation: z.number(),
  reasoning: z.number(),
});

/** See {@link TokenSlotRow}. */
export type TokenSlot = z.infer<typeof TokenSlotRow>;

/** A conversation whose calls are in a usage report: what the report groups by besides time. */
export const UsageConversationRow = z.object({
  id: z.string(),
  source: z.string(),
  title: z.string(),
  /** Its project's name (or path), null when it has none. */
  project: z.string().nullable(),
});

/** See {@link UsageConversationRow}. */
export type UsageConversation = z.infer<typeof UsageConversationRow>;

/** The token counts a filter selects, each API response counted once. */
export interface TokenTotals {
  slots: TokenSlot[];
  /** The conversations the slots name. */
  conversations: UsageConversation[];
}

/**
 * A stretch of time over which a time zone keeps one offset from UTC: from the quarter hour
 * `from` (a slot) until the next stretch's.
 */
export interface OffsetStretch {
  from: string;
  /** Local time less UTC. */
  minutes: number;
}

/**
 * What a report sums token counts by, besides source, model and long prompt: the local day of
 * a time zone (weeks and months are made of days), the session, the project, or nothing else.
 */
export type UsageGrain =
  | {
      by: 'day';
      /** A slot's local day (YYYY-MM-DD). */
      dayOf: (slot: string) => string;
      /** The zone's offsets over the slots from `first` to `last`, as `dayOf` reads them. */
      stretches: (first: string, last: string) => OffsetStretch[];
    }
  | { by: 'session' | 'project' | 'none' };

/**
 * The token counts of a report's grain: the calls of one group (see {@link UsageGrain}), source,
 * model and long prompt, apart by whether their quarter hours read and wrote the cache (a price
 * may lack either, and a quarter hour without is priced without it). A few thousand of these
 * stand for a million messages.
 */
export const TokenCellRow = z.object({
  /** The local day, the session's id or the project; null for no time or no project. */
  group: z.string().nullable(),
  /** By session: its title; else ''. */
  title: z.string(),
  source: z.string(),
  /** '' when the log names no model. */
  model: z.string(),
  long: z.boolean(),
  readsCache: z.boolean(),
  writesCache: z.boolean(),
  input: z.number(),
  output: z.number(),
  cacheRead: z.number(),
  cacheCreation: z.number(),
  reasoning: z.number(),
});

/** See {@link TokenCellRow}. */
export type TokenCell = z.infer<typeof TokenCellRow>;

/** A source's conversations started in the filter's time with no token count at all. */
export interface UncountedSource {
  source: string;
  conversations: number;
  /** Of how many conversations of the source the filter selects. */
  of: number;
  /** The models their messages name, by messages, most first. */
  models: { model: string; messages: number }[];
}

/** A source's count of conversations without token counts, as both stores read it. */
export const UncountedRow = z.object({
  source: z.string(),
  conversations: z.number(),
  of: z.number(),
});

/** The assistant messages of a source's model, as both stores read them. */
export const ModelRow = z.object({ source: z.string(), model: z.string(), messages: z.number() });

/** Each source's uncounted conversations with the models their messages name. */
export function withModels(
  sources: readonly z.infer<typeof UncountedRow>[],
  models: readonly z.infer<typeof ModelRow>[],
): UncountedSource[] {
  return sources.map((row) => ({
    ...row,
    models: models
      .filter((m) => m.source === row.source)
      .map(({ model, messages }) => ({ model, messages })),
  }));
}

/** A message of a conversation with no token count, for an estimate from its text. */
export const UncountedMessageRow = z.object({
  conversationId: z.string(),
  createdAt: z.string().nullable(),
  role: z.string(),
  model: z.string().nullable(),
  content: z.string(),
});

/** See {@link UncountedMessageRow}. */
export type UncountedMessage = z.infer<typeof UncountedMessageRow>;

/** What a usage report reads of a store: token counts summed, and what has none. */
export interface UsageReader {
  /**
   * The token counts of the calls the filter selects, summed by conversation, model and quarter
   * hour; a response held by several conversations (a resumed session's copy) counts once, in
   * the conversation that holds it first.
   */
  tokenTotals(filter: UsageFilter): Promise<TokenTotals>;
  /**
   * The same counts summed to a report's grain (see {@link TokenCell}), by the store where it
   * can: what a report reads.
   */
  tokenCells(filter: UsageFilter, grain: UsageGrain): Promise<TokenCell[]>;
  /** Per source, the conversations (started in the filter's time) that have no token count. */
  uncounted(filter: UsageFilter): Promise<UncountedSource[]>;
  /**
   * The messages of the conversations `uncounted` counts, in the filter's time and of
   * `sources`, one at a time (an estimate reads every word).
   */
  uncountedMessages(
    filter: UsageFilter,
    sources: readonly string[],
  ): AsyncIterable<UncountedMessage>;
}

/** The quarter hour (`YYYY-MM-DDTHH:MM`, UTC) a stored timestamp falls in; '' for none. */
export function slotOf(createdAt: unknown): string {
  if (typeof createdAt !== 'string' || createdAt.length < 16) return '';
  const minutes = Number(createdAt.slice(14, 16));
  if (!Number.isInteger(minutes)) return '';
  return `${createdAt.slice(0, 14)}${String(minutes - (minutes % 15)).padStart(2, '0')}`;
}

/** A slot's start as a stored timestamp. */
export function slotStart(slot: string): string {
  return `${slot}:00.000000Z`;
}

/** The slot a stored timestamp is in, if it is the slot's start; else the next slot. */
export function slotAtOrAfter(time: string): string {
  const slot = slotOf(time);
  if (slot === '' || slotStart(slot) === time) return slot;
  const next = new Date(Date.parse(`${slot}:00Z`) + 15 * 60_000).toISOString();
  return next.slice(0, 16);
}
