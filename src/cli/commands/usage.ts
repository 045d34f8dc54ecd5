import { dirname, join } from 'node:path';
import type { Command } from 'commander';
import {
  SHIPPED_PRICES,
  USAGE_GROUPS,
  overlaidPrices,
  readPriceFile,
  usageReport,
  type PriceTable,
  type UsageGroup,
  type UsageReport,
  type UsageRow,
} from '../../api/query.js';
import { checkChoice, type Choice } from '../choices.js';
import { SOURCE_CHOICE } from '../source-choice.js';
import type { CliIo } from '../cli-io.js';
import { configPath } from '../config/config-file.js';
import { plural } from '../plural.js';
import { withReader, withStoreOptions, type StoreOptions } from '../store-options.js';
import { wrapWords } from '../wrap-words.js';

export type UsageOptions = StoreOptions & {
  by: string;
  breakdown?: boolean;
  source?: string;
  project?: string;
  since?: string;
  until?: string;
  json?: boolean;
  estimate?: boolean;
};

const GROUP_CHOICE: Choice<UsageGroup> = {
  noun: 'grouping',
  plural: 'groupings',
  values: USAGE_GROUPS,
};

/** Where a person's own prices are: `prices.json` beside the config file. */
export function priceFilePath(env: NodeJS.ProcessEnv = process.env): string {
  return join(dirname(configPath(env)), 'prices.json');
}

/** The shipped prices, with the config folder's file over them when there is one. */
export function pricesFor(env: NodeJS.ProcessEnv = process.env): PriceTable {
  return overlaidPrices(SHIPPED_PRICES, readPriceFile(priceFilePath(env)));
}

/** A count that fits 8 columns: exact below 100,000, then K, M and B with 3 figures or more. */
function count(n: number): string {
  if (n < 100_000) return n.toLocaleString('en-US');
  const [value, unit] =
    n < 1e6 ? [n / 1e3, 'K'] : n < 1e9 ? [n / 1e6, 'M'] : ([n / 1e9, 'B'] as const);
  return `${value.toFixed(value < 10 ? 2 : value < 100 ? 1 : 0)}${unit}`;
}

function dollars(cost: number | null): string {
  if (cost === null) return 'no price';
  if (cost > 0 && cost < 0.005) return '<$0.01';
  return cost < 1000 ? `$${cost.toFixed(2)}` : `$${Math.round(cost).toLocaleString('en-US')}`;
}

function cut(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

const LABEL = 24;
const NUMBER = 8;
const COST = 9;

/** The mark an estimated row's label ends with (explained under the table). */
const ESTIMATED = ' ~';

function line(label: string, numbers: readonly string[], cost: string): string {
  return `${cut(label, LABEL).padEnd(LABEL)}${numbers.map((n) => ` ${n.padStart(NUMBER)}`).join('')} ${cost.padStart(COST)}`.trimEnd();
}

/** A row's line; a label too long for its column (a model and source) gets a line of its own. */
function rowLines(label: string, row: Omit<UsageRow, 'period' | 'model' | 'source'>): string[] {
  if (row.estimated === true) label = `${label}${ESTIMATED}`;
  if (label.length <= LABEL) return [rowLine(label, row)];
  const indent = /^ */.exec(label)?.[0] ?? '';
  return [cut(label, 80), rowLine(indent, row)];
}

function rowLine(label: string, row: Omit<UsageRow, 'period' | 'model' | 'source'>): string {
  return line(
    label,
    [
      count(row.input_tokens),
      count(row.output_tokens),
      count(row.cache_creation_tokens),
      count(row.cache_read_tokens),
      count(row.total_tokens),
    ],
    row.unpriced_models.length > 0 && row.cost_usd !== null
      ? `${dollars(row.cost_usd)}+`
      : dollars(row.cost_usd),
  );
}

/** A row's sum over rows: costs added where known, null when none of them is. */
function summed(period: string, rows: readonly UsageRow[]): UsageRow {
  const costs = rows.map((r) => r.cost_usd).filter((c): c is number => c !== null);
  return {
    period,
    model: null,
    source: null,
    input_tokens: rows.reduce((s, r) => s + r.input_tokens, 0),
    output_tokens: rows.reduce((s, r) => s + r.output_tokens, 0),
    cache_creation_tokens: rows.reduce((s, r) => s + r.cache_creation_tokens, 0),
    cache_read_tokens: rows.reduce((s, r) => s + r.cache_read_tokens, 0),
    reasoning_tokens: rows.reduce((s, r) => s + r.reasoning_tokens, 0),
    total_tokens: rows.reduce((s, r) => s + r.total_tokens, 0),
    cost_usd: costs.length > 0 ? costs.reduce((s, c) => s + c, 0) : null,
    unpriced_models: [...new Set(rows.flatMap((r) => r.unpriced_models))],
    ...(rows[0]?.estimated === true ? { estimated: true as const } : {}),
  };
}

// The notes under the table: 80 columns, their lines after the first indented by two spaces.
const note = (text: string): string[] => wrapWords(text, 80, '  ');

const HEADING: Record<UsageGroup, string> = {
  day: 'day',
  week: 'week of',
  month: 'month',
  session: 'session',
  model: 'model',
  source: 'source',
  project: 'project',
};

/** The report as a table that reads at 80 columns, and its notes below it. */
export function formatUsage(report: UsageReport, breakdown: boolean): string[] {
  const out: string[] = [];
  const labelOf = (row: UsageRow): string =>
    report.by === 'session' && row.title ? row.title : row.period;
  if (report.rows.length === 0) out.push('no token counts match');
  else {
    out.push(
      line(HEADING[report.by], ['input', 'output', 'cache wr', 'cache rd', 'total'], 'cost (USD)'),
    );
    if (breakdown) {
      // A period's estimated rows are a group of their own: never summed with counted ones.
      const periods = new Map<string, UsageRow[]>();
      for (const row of report.rows) {
        const key = `${row.period}\u0000${row.estimated === true ? 'estimated' : ''}`;
        const list = periods.get(key);
        if (list) list.push(row);
        else periods.set(key, [row]);
      }
      for (const rows of periods.values()) {
        const period = rows[0]?.period ?? '';
        out.push(...rowLines(labelOf(rows[0] ?? summed(period, rows)), summed(period, rows)));
        for (const row of rows) {
          const what = [
            report.by === 'model' ? null : (row.model ?? '(no model named)'),
            report.by === 'source' ? null : row.source,
          ]
            .filter((part): part is string => part !== null && part !== '')
            .join(' · ');
          // A group of one: its line says it all; the model and source alone below it.
          if (rows.length === 1) out.push(cut(`  ${what}`, 80));
          else out.push(...rowLines(`  ${what}`, row));
        }
      }
    } else for (const row of report.rows) out.push(...rowLines(labelOf(row), row));
    out.push(rowLine('total', report.total));
    if (report.estimated && report.rows.some((row) => row.estimated === true))
      out.push(...rowLines('estimated total', { ...report.estimated.total, estimated: true }));
  }
  out.push('');
  out.push(
    ...note(
      `Input is without cache reads, output with reasoning (${count(report.total.reasoning_tokens)} of it); cache wr and rd are cache writes and reads; each API response counted once. ${report.by === 'day' || report.by === 'week' || report.by === 'month' ? `Days in ${report.timeZone}. ` : ''}Prices of ${report.prices.date}: ${report.prices.source}.`,
    ),
  );
  if (report.prices.unpriced_models.length > 0)
    out.push(
      ...note(
        `No price for ${report.prices.unpriced_models.join(', ')}: tokens shown, not in the cost (a + marks a cost without them). Prices can be added in ${priceFilePath()}.`,
      ),
    );
  if (report.estimated)
    out.push(...note(`${ESTIMATED.trim()} Estimated rows: ${report.estimated.method}.`));
  for (const source of report.uncounted) {
    const models = source.models
      .slice(0, 5)
      .map((m) => `${m.model} (${plural(m.messages, 'reply', 'replies')})`)
      .join(', ');
    out.push(
      ...note(
        `No token counts in ${source.source} (${source.conversations.toLocaleString('en-US')} of ${plural(source.of, 'conversation')}): ${report.estimated ? 'estimated in the rows marked ~, not counted' : 'not counted, never guessed (--estimate estimates them from text length)'}${models ? `; models: ${models}${source.models.length > 5 ? ', …' : ''}` : ''}.`,
      ),
    );
  }
  return out;
}

/** `chatgraph usage`: tokens and cost by time, session, model, source or project. */
export async function runUsage(options: UsageOptions, io: CliIo): Promise<void> {
  const by = checkChoice('--by', options.by, GROUP_CHOICE);
  const source =
    options.source !== undefined
      ? checkChoice('--source', options.source, SOURCE_CHOICE)
      : undefined;
  const prices = pricesFor();
  const report = await withReader(options, (store) =>
    usageReport(store.usage, {
      by,
      breakdown: options.breakdown,
      source,
      project: options.project,
      since: options.since,
      until: options.until,
      timeZone: process.env.TZ || undefined,
      prices,
      estimate: options.estimate,
    }),
  );
  if (options.json) {
    io.out(JSON.stringify(report, null, 2));
    return;
  }
  for (const text of formatUsage(report, options.breakdown === true)) io.out(text);
}

export function registerUsage(program: Command, io: CliIo): void {
  withStoreOptions(
    program
      .command('usage')
      .description(
        'tokens and cost of the coding agents’ model calls by day, week, month, session, model, source or project',
      ),
  )
    .option('--by <grouping>', USAGE_GROUPS.join(', '), 'day')
    .option('--breakdown', 'a line per model and source in each group')
    .option('--source <source>', 'only this source (claude-code, codex, gemini-cli, ...)')
    .option('--project <words>', 'only sessions of a project whose name or path has these words')
    .option(
      '--since <date>',
      'only calls at or after this date (midnight in $TZ), time, or 24h, 7d, 2w, today',
    )
    .option('--until <date>', 'only calls before this date (midnight in $TZ) or time')
    .option(
      '--estimate',
      'estimate the tokens of chat exports (which have no counts) from their text length: rows of their own, marked',
    )
    .option(
      '--json',
      'print one JSON document: {by, timeZone, rows: [{period, model, source, input_tokens, output_tokens, cache_creation_tokens, cache_read_tokens, reasoning_tokens, total_tokens, cost_usd, unpriced_models, estimated?}], total, uncounted, estimated?, prices}',
    )
    .action((options: UsageOptions) => runUsage(options, io));
}
