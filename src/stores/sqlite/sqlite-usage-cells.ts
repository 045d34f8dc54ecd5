import type Database from 'better-sqlite3-multiple-ciphers';
import { z } from 'zod';
import {
  TokenCellRow,
  slotAtOrAfter,
  slotOf,
  slotStart,
  type OffsetStretch,
  type TokenCell,
  type UsageFilter,
  type UsageGrain,
} from '../usage-reader.js';
import { SQL } from './sqlite-dialect.js';
import { Flag, sqliteRow, sqliteRows } from './sqlite-rows.js';
import { M_HAS_TOKENS, M_LONG, M_SLOT } from './sqlite-token-counts.js';

// A usage report's sums to its grain in SQL (local day, session or project; source, model, long
// prompt, cache read and written): what it reads of token_counts is a few thousand rows, not
// its ~86,000 for a million messages (see docs/performance.md).

const CellRow = TokenCellRow.extend({ long: Flag, readsCache: Flag, writesCache: Flag });
const SpanRow = z.object({ first: z.string().nullable(), last: z.string().nullable() });

/** Which conversations a read is of, besides the filter's: only some, or all but some. */
export interface Within {
  only?: readonly string[] | undefined;
  skip?: readonly string[] | undefined;
}

/** A filter's conditions over the conversation `c`: its source and project. */
export function conversationWhere(
  filter: UsageFilter,
  within: Within = {},
): {
  where: string[];
  params: Record<string, unknown>;
} {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  if (within.only !== undefined) {
    where.push('c.id IN (SELECT value FROM json_each(@only))');
    params.only = JSON.stringify(within.only);
  }
  if (within.skip !== undefined && within.skip.length > 0) {
    where.push('c.id NOT IN (SELECT value FROM json_each(@skip))');
    params.skip = JSON.stringify(within.skip);
  }
  if (filter.source !== undefined) {
    where.push('c.source = @source');
    params.source = filter.source;
  }
  if (filter.project !== undefined && filter.project.trim() !== '') {
    where.push(SQL.projectContains);
    params.project = SQL.titleContains.value(filter.project.trim());
  }
  return { where, params };
}

export const and = (where: readonly string[]): string => where.map((w) => ` AND ${w}`).join('');

/** A row of fine sums `t` that counts anything (a quarter hour a patch emptied does not). */
const T_COUNTED = `(t.input <> 0 OR t.output <> 0 OR t.cache_read <> 0 OR t.cache_creation <> 0 OR t.reasoning <> 0)`;

/** A date() modifier moving a UTC time to local time. */
const modifier = (minutes: number): string => `${minutes < 0 ? '' : '+'}${String(minutes)} minutes`;

/**
 * The local day of slot `t.slot` in SQL, at a fixed offset per stretch (a `CASE` of a few
 * branches: two a year in a zone with summer time); NULL for no time.
 */
function dayColumn(stretches: readonly OffsetStretch[], params: Record<string, unknown>): string {
  const last = stretches.at(-1);
  if (last === undefined) return 'NULL';
  const cases = stretches.slice(1).map((next, i) => {
    params[`before${String(i)}`] = next.from;
    params[`offset${String(i)}`] = modifier(stretches[i]?.minutes ?? 0);
    return ` WHEN t.slot < @before${String(i)} THEN date(t.slot, @offset${String(i)})`;
  });
  params.offsetLast = modifier(last.minutes);
  return `CASE WHEN t.slot = '' THEN NULL${cases.join('')} ELSE date(t.slot, @offsetLast) END`;
}

/** Fine sums of messages `m` in [@cutSince, @cutUntil), as token_counts rows `t`. */
const MESSAGE_SUMS = `(SELECT ${M_SLOT} AS slot, m.owner AS owner, coalesce(m.model_slug, '') AS model, ${M_LONG} AS long,
    sum(coalesce(m.input_tokens, 0)) AS input, sum(coalesce(m.output_tokens, 0)) AS output,
    sum(coalesce(m.cache_read_tokens, 0)) AS cache_read, sum(coalesce(m.cache_creation_tokens, 0)) AS cache_creation,
    sum(coalesce(m.reasoning_tokens, 0)) AS reasoning
  FROM "Message" m WHERE ${M_HAS_TOKENS} AND m.created_at >= @cutSince AND m.created_at < @cutUntil
  GROUP BY 1, 2, 3, 4)`;

/** `summedSlots` to the grain: whole quarter hours from the sums, the cut ones from messages. */
export function summedCells(
  db: Database.Database,
  filter: UsageFilter,
  grain: UsageGrain,
  skip: readonly string[],
): TokenCell[] {
  const { since, until } = filter;
  const from = since !== undefined ? slotAtOrAfter(since) : undefined;
  const to = until !== undefined ? slotOf(until) : undefined;
  if (
    since !== undefined &&
    until !== undefined &&
    from !== undefined &&
    to !== undefined &&
    from >= to
  )
    return grainCells(db, MESSAGE_SUMS, filter, grain, skip, { cutSince: since, cutUntil: until });
  const bounds: string[] = [];
  const params: Record<string, unknown> = {};
  if (from !== undefined || to !== undefined) bounds.push(`t.slot <> ''`);
  if (from !== undefined) {
    bounds.push('t.slot >= @from');
    params.from = from;
  }
  if (to !== undefined) {
    bounds.push('t.slot < @to');
    params.to = to;
  }
  const cells = grainCells(db, 'token_counts', filter, grain, skip, params, bounds);
  if (since !== undefined && from !== undefined && slotStart(from) > since)
    cells.push(
      ...grainCells(db, MESSAGE_SUMS, filter, grain, skip, {
        cutSince: since,
        cutUntil: slotStart(from),
      }),
    );
  if (until !== undefined && to !== undefined && slotStart(to) < until)
    cells.push(
      ...grainCells(db, MESSAGE_SUMS, filter, grain, skip, {
        cutSince: slotStart(to),
        cutUntil: until,
      }),
    );
  return cells;
}

/**
 * Fine sums `t` (token_counts, or messages summed as it sums them) summed again to the grain,
 * in SQL: a few thousand rows for a million messages.
 */
function grainCells(
  db: Database.Database,
  fine: string,
  filter: UsageFilter,
  grain: UsageGrain,
  skip: readonly string[],
  range: Record<string, unknown>,
  bounds: readonly string[] = [],
): TokenCell[] {
  const c = conversationWhere(filter, { skip });
  const params: Record<string, unknown> = { ...c.params, ...range };
  let group = 'NULL';
  let title = `''`;
  if (grain.by === 'day') {
    const span = slotSpan(db, fine, bounds, range);
    group = span ? dayColumn(grain.stretches(span.first, span.last), params) : 'NULL';
  } else if (grain.by === 'session' || grain.by === 'project') {
    group = 't.owner';
    if (grain.by === 'session') title = 'c.name';
  }
  let sql = `SELECT ${group} AS "group", ${title} AS title, c.source AS source, t.model AS model,
        t.long AS long, t.cache_read > 0 AS readsCache, t.cache_creation > 0 AS writesCache,
        sum(t.input) AS input, sum(t.output) AS output, sum(t.cache_read) AS cacheRead,
        sum(t.cache_creation) AS cacheCreation, sum(t.reasoning) AS reasoning
      FROM ${fine} t JOIN "Conversation" c ON c.id = t.owner
      WHERE ${T_COUNTED}${and([...bounds, ...c.where])} GROUP BY 1, 2, 3, 4, 5, 6, 7`;
  // By project: summed by session first, then each session's project asked once.
  if (grain.by === 'project')
    sql = `SELECT (SELECT coalesce(p.name, p.path, p.project_id) FROM "HAS_SESSION" s JOIN "Project" p ON p.id = s.src
          WHERE s.dst = o."group" ORDER BY p.id LIMIT 1) AS "group", '' AS title, o.source AS source, o.model AS model,
          o.long AS long, o.readsCache AS readsCache, o.writesCache AS writesCache, sum(o.input) AS input,
          sum(o.output) AS output, sum(o.cacheRead) AS cacheRead, sum(o.cacheCreation) AS cacheCreation,
          sum(o.reasoning) AS reasoning
        FROM (${sql}) o GROUP BY 1, 2, 3, 4, 5, 6, 7`;
  return sqliteRows(CellRow, db.prepare(sql).all(params), 'token counts');
}

/** The first and last quarter hour with a time that fine sums `t` hold in their bounds. */
function slotSpan(
  db: Database.Database,
  fine: string,
  bounds: readonly string[],
  range: Record<string, unknown>,
): { first: string; last: string } | undefined {
  const row = db
    .prepare(
      `SELECT min(t.slot) AS first, max(t.slot) AS last FROM ${fine} t WHERE t.slot <> ''${and(bounds)}`,
    )
    .get(range);
  const span = sqliteRow(SpanRow, row, 'token counts span');
  return span !== undefined && span.first !== null && span.last !== null
    ? { first: span.first, last: span.last }
    : undefined;
}
