import { timestampOf } from '../model/time.js';
import { QueryError } from '../stores/store.js';
import { parseDateBound } from '../stores/date-bound.js';
import type {
  TokenSlot,
  TokenTotals,
  UncountedSource,
  UsageFilter,
  UsageReader,
} from '../stores/usage-reader.js';
import { ESTIMATE_METHOD, estimatesOf } from './estimate.js';
import { priceOf, type ModelPrice, type PriceTable } from './prices.js';

/** What a usage report groups its rows by. */
export const USAGE_GROUPS = [
  'day',
  'week',
  'month',
  'session',
  'model',
  'source',
  'project',
] as const;

/** See {@link USAGE_GROUPS}. */
export type UsageGroup = (typeof USAGE_GROUPS)[number];

/** What a usage report is asked for. */
export interface UsageQuery {
  by: UsageGroup;
  /** A row per model and source within each group. */
  breakdown?: boolean | undefined;
  source?: string | undefined;
  project?: string | undefined;
  /** A date (midnight in `timeZone`), a timestamp, or `7d`, `today`… as `list --since`. */
  since?: string | undefined;
  until?: string | undefined;
  /** The IANA time zone days, weeks and months are in (default: the process's, `TZ`). */
  timeZone?: string | undefined;
  prices: PriceTable;
  /** The time relative bounds (`7d`) count back from. */
  now?: Date | undefined;
  /**
   * Estimate the tokens of conversations without counts (chat exports) from their text: rows
   * of their own, marked `estimated`, outside `total`.
   */
  estimate?: boolean | undefined;
}

/** One row of a usage report: a group (and with a breakdown a model and source), summed. */
export interface UsageRow {
  /** The day (YYYY-MM-DD), week (its Monday), month (YYYY-MM), session id, model, source or project. */
  period: string;
  /** With a breakdown (or by model): the model, null when the log names none. */
  model: string | null;
  /** With a breakdown (or by source): the source. */
  source: string | null;
  /** By session: the conversation's title. */
  title?: string;
  input_tokens: number;
  output_tokens: number;
  cache_creation_tokens: number;
  cache_read_tokens: number;
  /** How much of the output was reasoning (already in `output_tokens`). */
  reasoning_tokens: number;
  /** Input, output, cache creation and cache read summed. */
  total_tokens: number;
  /** Null when no model of the row has a price. */
  cost_usd: number | null;
  /** The row's models with no price (their tokens are in the row, not in its cost). */
  unpriced_models: string[];
  /** Present (true) on a row estimated from text length, never counted (`--estimate`). */
  estimated?: true;
}

/** What an estimate covered, and its sum (kept apart from the counted total). */
export interface UsageEstimate {
  total: Omit<UsageRow, 'period' | 'model' | 'source' | 'title' | 'estimated'>;
  /** The sources estimated, with how many conversations and messages of each. */
  sources: { source: string; conversations: number }[];
  /** How the tokens were estimated, in a sentence. */
  method: string;
}

/** A usage report: its rows, their sum, and what could not be counted or priced. */
export interface UsageReport {
  by: UsageGroup;
  timeZone: string;
  rows: UsageRow[];
  total: Omit<UsageRow, 'period' | 'model' | 'source' | 'title'>;
  /** Sources with conversations that hold no token count (chat exports): not guessed. */
  uncounted: UncountedSource[];
  /** With `estimate`: the estimated rows' sum and what they cover. */
  estimated?: UsageEstimate;
  prices: { date: string; source: string; unpriced_models: string[] };
}

const MINUTE = 60_000;

/** The time zone's offset from UTC at an instant, in minutes. */
function offsetMinutes(zone: Intl.DateTimeFormat, at: number): number {
  const parts = Object.fromEntries(zone.formatToParts(new Date(at)).map((p) => [p.type, p.value]));
  const local = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour) % 24,
    Number(parts.minute),
  );
  return Math.round((local - Math.floor(at / MINUTE) * MINUTE) / MINUTE);
}

function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
  } catch {
    throw new QueryError(`no such time zone: "${timeZone}" (an IANA name like Europe/Paris)`);
  }
}

/**
 * A bound as a stored timestamp: a plain date is its midnight in the report's time zone (a
 * day of the report starts there), anything else as `list --since` reads it.
 */
function boundOf(
  text: string,
  option: string,
  zone: Intl.DateTimeFormat,
  now: Date,
): string | undefined {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (day) {
    const utc = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    let at = utc - offsetMinutes(zone, utc) * MINUTE;
    at = utc - offsetMinutes(zone, at) * MINUTE;
    return timestampOf(new Date(at));
  }
  const bound = parseDateBound(text, now);
  if (bound === undefined)
    throw new QueryError(
      `${option} takes a date like 2026-01-02 (midnight in the report's time zone), a time like 2026-01-02T10:00:00Z, or 24h, 7d, 2w, today or yesterday, not "${text}"`,
    );
  return bound;
}

/**
 * The local day (YYYY-MM-DD) of quarter hours, asking the time zone its offset twice a UTC day
 * rather than for every quarter hour (`formatToParts` was most of a million-message report): a
 * UTC day whose first and last quarter hours have one offset has it throughout (no zone changes
 * its offset and back within a day).
 */
function dayFinder(zone: Intl.DateTimeFormat): (slot: string) => string {
  const offsets = new Map<string, number | null>();
  return (slot) => {
    const at = Date.parse(`${slot}:00Z`);
    const utcDay = slot.slice(0, 10);
    let offset = offsets.get(utcDay);
    if (offset === undefined) {
      const start = Date.parse(`${utcDay}T00:00:00Z`);
      const first = offsetMinutes(zone, start);
      offset = first === offsetMinutes(zone, start + 95 * 15 * MINUTE) ? first : null;
      offsets.set(utcDay, offset);
    }
    return new Date(at + (offset ?? offsetMinutes(zone, at)) * MINUTE).toISOString().slice(0, 10);
  };
}

/** The Monday of a day's week (ISO weeks start on Monday). */
function mondayOf(day: string): string {
  const at = Date.parse(`${day}T00:00:00Z`);
  const weekday = (new Date(at).getUTCDay() + 6) % 7;
  return new Date(at - weekday * 86_400_000).toISOString().slice(0, 10);
}

/** A slot's cost in dollars, or undefined without a price for every field it uses. */
function costOf(slot: TokenSlot, price: ModelPrice | undefined): number | undefined {
  if (price === undefined) return undefined;
  const tier = slot.long && price.long ? price.long : price;
  const cacheRead = slot.cacheRead > 0 ? tier.cache_read : 0;
  const cacheWrite = slot.cacheCreation > 0 ? tier.cache_write : 0;
  if (cacheRead === undefined || cacheWrite === undefined) return undefined;
  return (
    (slot.input * tier.input +
      slot.output * tier.output +
      slot.cacheRead * cacheRead +
      slot.cacheCreation * cacheWrite) /
    1_000_000
  );
}

interface Group {
  row: UsageRow;
  priced: boolean;
  cost: number;
  unpriced: Set<string>;
}

function emptyRow(period: string, model: string | null, source: string | null): UsageRow {
  return {
    period,
    model,
    source,
    input_tokens: 0,
    output_tokens: 0,
    cache_creation_tokens: 0,
    cache_read_tokens: 0,
    reasoning_tokens: 0,
    total_tokens: 0,
    cost_usd: null,
    unpriced_models: [],
  };
}

function add(group: Group, slot: TokenSlot, cost: number | undefined, model: string): void {
  const { row } = group;
  row.input_tokens += slot.input;
  row.output_tokens += slot.output;
  row.cache_creation_tokens += slot.cacheCreation;
  row.cache_read_tokens += slot.cacheRead;
  row.reasoning_tokens += slot.reasoning;
  row.total_tokens += slot.input + slot.output + slot.cacheCreation + slot.cacheRead;
  if (cost === undefined) group.unpriced.add(model === '' ? '(no model named)' : model);
  else {
    group.priced = true;
    group.cost += cost;
  }
}

function finish(group: Group): UsageRow {
  return {
    ...group.row,
    // Cents to the millionth: sums of many small costs print without float noise.
    cost_usd: group.priced ? Math.round(group.cost * 1e6) / 1e6 : null,
    unpriced_models: [...group.unpriced].sort(),
  };
}

/** A slot's group: its local day, week or month, or its session, model, source or project. */
function periodOf(
  by: UsageGroup,
  slot: TokenSlot,
  dayOf: (slot: string) => string,
  source: string,
  project: string | null | undefined,
): string {
  if (by === 'session') return slot.conversationId;
  if (by === 'model') return slot.model === '' ? '(no model named)' : slot.model;
  if (by === 'source') return source;
  if (by === 'project') return project ?? '(no project)';
  const day = slot.slot === '' ? '(no time)' : dayOf(slot.slot);
  if (by === 'day' || day === '(no time)') return day;
  return by === 'week' ? mondayOf(day) : day.slice(0, 7);
}

/** Rows in time order (then model, source), or most tokens first; counted before estimated. */
function rowOrder(timed: boolean): (a: UsageRow, b: UsageRow) => number {
  return (a, b) =>
    (timed
      ? a.period.localeCompare(b.period) ||
        (a.model ?? '').localeCompare(b.model ?? '') ||
        (a.source ?? '').localeCompare(b.source ?? '')
      : b.total_tokens - a.total_tokens || a.period.localeCompare(b.period)) ||
    Number(a.estimated === true) - Number(b.estimated === true);
}

/** The estimate's part of a report: its sum and the conversations of each source it read. */
function estimateOf(sum: UsageRow, estimates: TokenTotals): UsageEstimate {
  const { period: _p, model: _m, source: _s, estimated: _e, ...total } = sum;
  const perSource = new Map<string, number>();
  for (const c of estimates.conversations)
    perSource.set(c.source, (perSource.get(c.source) ?? 0) + 1);
  return {
    total,
    sources: [...perSource]
      .map(([source, conversations]) => ({ source, conversations }))
      .sort((a, b) => a.source.localeCompare(b.source)),
    method: ESTIMATE_METHOD,
  };
}

/** The report's rows from the store's sums: pure, so every shell shows the same figures. */
export function summarizeUsage(
  totals: TokenTotals,
  uncounted: UncountedSource[],
  query: Pick<UsageQuery, 'by' | 'breakdown' | 'prices'> & { timeZone: string },
  estimates?: TokenTotals,
): UsageReport {
  const dayOf = dayFinder(zoneFormat(query.timeZone));
  const timed = query.by === 'day' || query.by === 'week' || query.by === 'month';
  const periods = new Map<string, string>();
  // A model's price looked up once (`priceOf` normalizes the name each time).
  const prices = new Map<string, ModelPrice | undefined>();
  const conversations = new Map(
    [...totals.conversations, ...(estimates?.conversations ?? [])].map((c) => [c.id, c]),
  );
  const groups = new Map<string, Group>();
  const newGroup = (): Group => ({
    row: emptyRow('', null, null),
    priced: false,
    cost: 0,
    unpriced: new Set(),
  });
  const all = newGroup();
  const allEstimated = newGroup();
  const unpricedModels = new Set<string>();
  const place = (slot: TokenSlot, estimated: boolean): void => {
    const conversation = conversations.get(slot.conversationId);
    const source = conversation?.source ?? '';
    let period = timed ? periods.get(slot.slot) : undefined;
    if (period === undefined) {
      period = periodOf(query.by, slot, dayOf, source, conversation?.project);
      if (timed) periods.set(slot.slot, period);
    }
    const model = query.breakdown === true || query.by === 'model' ? slot.model : undefined;
    const bySource = query.breakdown === true || query.by === 'source' ? source : undefined;
    const key = [period, model ?? '\u0001', bySource ?? '\u0001', estimated ? 'e' : ''].join(
      '\u0000',
    );
    let group = groups.get(key);
    if (group === undefined) {
      group = newGroup();
      group.row = emptyRow(
        period,
        model === undefined ? null : model === '' ? null : model,
        bySource ?? null,
      );
      if (query.by === 'session') group.row.title = conversation?.title ?? '';
      if (estimated) group.row.estimated = true;
      groups.set(key, group);
    }
    let price = prices.get(slot.model);
    if (price === undefined && !prices.has(slot.model)) {
      price = priceOf(query.prices, slot.model);
      prices.set(slot.model, price);
    }
    const cost = costOf(slot, price);
    if (cost === undefined) unpricedModels.add(slot.model === '' ? '(no model named)' : slot.model);
    add(group, slot, cost, slot.model);
    add(estimated ? allEstimated : all, slot, cost, slot.model);
  };
  for (const slot of totals.slots) place(slot, false);
  for (const slot of estimates?.slots ?? []) place(slot, true);
  const rows = [...groups.values()].map(finish);
  rows.sort(rowOrder(timed));
  const { period: _p, model: _m, source: _s, ...total } = finish(all);
  const report: UsageReport = {
    by: query.by,
    timeZone: query.timeZone,
    rows,
    total,
    uncounted,
    prices: {
      date: query.prices.date,
      source: query.prices.source,
      unpriced_models: [...unpricedModels].sort(),
    },
  };
  if (estimates !== undefined) report.estimated = estimateOf(finish(allEstimated), estimates);
  return report;
}

/**
 * The usage report of a store: tokens and cost of every model call the query selects, each
 * API response counted once, grouped by time (in the query's time zone), session, model,
 * source or project, and what has no token counts named rather than guessed.
 */
export async function usageReport(reader: UsageReader, query: UsageQuery): Promise<UsageReport> {
  const timeZone = query.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
  const zone = zoneFormat(timeZone);
  const now = query.now ?? new Date();
  const filter: UsageFilter = {
    source: query.source,
    project: query.project,
    since: query.since === undefined ? undefined : boundOf(query.since, '--since', zone, now),
    until: query.until === undefined ? undefined : boundOf(query.until, '--until', zone, now),
  };
  const [totals, uncounted] = await Promise.all([
    reader.tokenTotals(filter),
    reader.uncounted(filter),
  ]);
  const estimates =
    query.estimate === true ? await estimatesOf(reader, filter, uncounted) : undefined;
  return summarizeUsage(totals, uncounted, { ...query, timeZone }, estimates);
}
