import { cellsOf, mergedCells } from '../stores/usage-cells.js';
import type {
  TokenCell,
  TokenTotals,
  UncountedSource,
  UsageConversation,
  UsageFilter,
  UsageGrain,
  UsageReader,
} from '../stores/usage-reader.js';
import { ESTIMATE_METHOD, estimatesOf } from './estimate.js';
import { priceOf, type ModelPrice, type PriceTable } from './prices.js';
import { boundOf, dayGrain, mondayOf, zoneFormat } from './usage-zone.js';

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

/** What a report's rows are summed by before they are priced, in the report's time zone. */
function grainOf(by: UsageGroup, timeZone: string): UsageGrain {
  if (by === 'session' || by === 'project') return { by };
  if (by !== 'day' && by !== 'week' && by !== 'month') return { by: 'none' };
  return dayGrain(zoneFormat(timeZone));
}

/** What a cell is priced and summed by. */
type Counted = Pick<
  TokenCell,
  'long' | 'input' | 'output' | 'cacheRead' | 'cacheCreation' | 'reasoning'
>;

/**
 * A cell's cost in dollars, or undefined without a price for every field it uses. Its quarter
 * hours all read the cache or all did not (and so for writes): priced as one, as each alone.
 */
function costOf(slot: Counted, price: ModelPrice | undefined): number | undefined {
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

function add(group: Group, slot: Counted, cost: number | undefined, model: string): void {
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

/** A cell's group: its local day, week or month, or its session, model, source or project. */
function periodOf(by: UsageGroup, cell: TokenCell): string {
  if (by === 'session') return cell.group ?? '';
  if (by === 'model') return cell.model === '' ? '(no model named)' : cell.model;
  if (by === 'source') return cell.source;
  if (by === 'project') return cell.group ?? '(no project)';
  if (cell.group === null) return '(no time)';
  if (by === 'day') return cell.group;
  return by === 'week' ? mondayOf(cell.group) : cell.group.slice(0, 7);
}

/**
 * Rows in time order, or most tokens first; then by group, model and source (an order of its
 * own, not the store's); counted before estimated.
 */
function rowOrder(timed: boolean): (a: UsageRow, b: UsageRow) => number {
  return (a, b) =>
    (timed ? 0 : b.total_tokens - a.total_tokens) ||
    a.period.localeCompare(b.period) ||
    (a.model ?? '').localeCompare(b.model ?? '') ||
    (a.source ?? '').localeCompare(b.source ?? '') ||
    Number(a.estimated === true) - Number(b.estimated === true);
}

/** The estimate's part of a report: its sum and the conversations of each source it read. */
function estimateOf(sum: UsageRow, conversations: readonly UsageConversation[]): UsageEstimate {
  const { period: _p, model: _m, source: _s, estimated: _e, ...total } = sum;
  const perSource = new Map<string, number>();
  for (const c of conversations) perSource.set(c.source, (perSource.get(c.source) ?? 0) + 1);
  return {
    total,
    sources: [...perSource]
      .map(([source, conversations]) => ({ source, conversations }))
      .sort((a, b) => a.source.localeCompare(b.source)),
    method: ESTIMATE_METHOD,
  };
}

/** Estimated cells, and the conversations they were read from. */
interface Estimates {
  cells: TokenCell[];
  conversations: UsageConversation[];
}

/**
 * The report's rows from the store's sums at the report's grain: pure, so every shell shows the
 * same figures. Cells of one key are summed first and priced in the order of their keys, so a
 * report comes out the same from any store, however finely it summed.
 */
export function summarizeCells(
  counted: readonly TokenCell[],
  uncounted: UncountedSource[],
  query: Pick<UsageQuery, 'by' | 'breakdown' | 'prices'> & { timeZone: string },
  estimates?: Estimates,
): UsageReport {
  const timed = query.by === 'day' || query.by === 'week' || query.by === 'month';
  // A model's price looked up once (`priceOf` normalizes the name each time).
  const prices = new Map<string, ModelPrice | undefined>();
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
  const place = (cell: TokenCell, estimated: boolean): void => {
    const period = periodOf(query.by, cell);
    const model = query.breakdown === true || query.by === 'model' ? cell.model : undefined;
    const bySource = query.breakdown === true || query.by === 'source' ? cell.source : undefined;
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
      if (query.by === 'session') group.row.title = cell.title;
      if (estimated) group.row.estimated = true;
      groups.set(key, group);
    }
    let price = prices.get(cell.model);
    if (price === undefined && !prices.has(cell.model)) {
      price = priceOf(query.prices, cell.model);
      prices.set(cell.model, price);
    }
    const cost = costOf(cell, price);
    if (cost === undefined) unpricedModels.add(cell.model === '' ? '(no model named)' : cell.model);
    add(group, cell, cost, cell.model);
    add(estimated ? allEstimated : all, cell, cost, cell.model);
  };
  for (const cell of mergedCells(counted)) place(cell, false);
  for (const cell of mergedCells(estimates?.cells ?? [])) place(cell, true);
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
  if (estimates !== undefined)
    report.estimated = estimateOf(finish(allEstimated), estimates.conversations);
  return report;
}

/** The report of quarter hours summed one by one (see {@link summarizeCells}). */
export function summarizeUsage(
  totals: TokenTotals,
  uncounted: UncountedSource[],
  query: Pick<UsageQuery, 'by' | 'breakdown' | 'prices'> & { timeZone: string },
  estimates?: TokenTotals,
): UsageReport {
  const grain = grainOf(query.by, query.timeZone);
  return summarizeCells(
    cellsOf(totals, grain),
    uncounted,
    query,
    estimates && { cells: cellsOf(estimates, grain), conversations: estimates.conversations },
  );
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
  const grain = grainOf(query.by, timeZone);
  const [cells, uncounted] = await Promise.all([
    reader.tokenCells(filter, grain),
    reader.uncounted(filter),
  ]);
  const estimates =
    query.estimate === true ? await estimatesOf(reader, filter, uncounted) : undefined;
  return summarizeCells(
    cells,
    uncounted,
    { ...query, timeZone },
    estimates && { cells: cellsOf(estimates, grain), conversations: estimates.conversations },
  );
}
