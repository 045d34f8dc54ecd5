import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  USAGE_GROUPS,
  usageReport,
  type PriceTable,
  type UsageReport,
  type UsageRow,
} from '../../api/query.js';
import { truncatedOutput } from '../output-schemas.js';
import { fitPage } from '../result-budget.js';
import type { ToolContext } from '../tool-context.js';
import { guarded, ok } from '../tool-result.js';

const count = z.number().int();
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
const row = z.object({
  period: z.string(),
  model: z.string().nullable(),
  source: z.string().nullable(),
  title: z.string().optional(),
  ...sums,
  estimated: z.literal(true).optional(),
});
const output = z.object({
  by: z.string(),
  timeZone: z.string(),
  rows: z.array(row),
  total: z.object(sums),
  uncounted: z.array(
    z.object({
      source: z.string(),
      conversations: count,
      of: count,
      models: z.array(z.object({ model: z.string(), messages: count })),
    }),
  ),
  prices: z.object({ date: z.string(), source: z.string(), unpriced_models: z.array(z.string()) }),
  estimated: z
    .object({
      total: z.object(sums),
      sources: z.array(z.object({ source: z.string(), conversations: count })),
      method: z.string(),
    })
    .optional(),
  truncated: truncatedOutput,
});

const input = {
  by: z.enum(USAGE_GROUPS).default('month').describe('rows by (week: from Monday)'),
  breakdown: z.boolean().default(false).describe('a row per model and source'),
  source: z.string().optional().describe('only this source'),
  project: z.string().optional().describe('words of the project path'),
  since: z.string().optional().describe('from: 2024-05-01 (in timeZone), 7d, today'),
  until: z.string().optional().describe('before this, as since'),
  timeZone: z.string().optional().describe('IANA zone of days (default: the server’s)'),
  estimate: z.boolean().optional().describe('chat exports estimated from text length'),
};

function money(cost: number | null): string {
  return cost === null ? 'no price' : `$${cost.toFixed(2)}`;
}

function described(r: Omit<UsageRow, 'period' | 'model' | 'source'>): string {
  const plus = r.unpriced_models.length > 0 && r.cost_usd !== null ? ' + unpriced' : '';
  return `${r.input_tokens.toLocaleString('en-US')} in, ${r.output_tokens.toLocaleString('en-US')} out, ${r.cache_creation_tokens.toLocaleString('en-US')} cache write, ${r.cache_read_tokens.toLocaleString('en-US')} cache read: ${money(r.cost_usd)}${plus}`;
}

function label(r: UsageRow): string {
  const parts = [r.title ?? r.period];
  if (r.model !== null && r.model !== r.period) parts.push(r.model);
  if (r.source !== null && r.source !== r.period) parts.push(r.source);
  return `${parts.join(' · ')}${r.estimated === true ? ' (estimated)' : ''}`;
}

/** The report as an agent reads it: a line per row, the total, and what has no counts or price. */
function text(report: UsageReport, rows: readonly UsageRow[], truncated: boolean): string {
  const lines = [
    `Token usage by ${report.by}${report.by === 'day' || report.by === 'week' || report.by === 'month' ? ` (${report.timeZone})` : ''}, each API response counted once; input excludes cache reads, output includes reasoning.`,
    ...rows.map((r) => `- ${label(r)}: ${described(r)}`),
    `Total: ${described(report.total)}.`,
    `Prices of ${report.prices.date} (${report.prices.source}).`,
  ];
  if (report.rows.length === 0) lines.splice(1, 0, 'No token counts match.');
  if (report.prices.unpriced_models.length > 0)
    lines.push(
      `No price for ${report.prices.unpriced_models.join(', ')}: their tokens are counted, their cost is not guessed.`,
    );
  if (report.estimated)
    lines.push(
      `Estimated, not in the total: ${described(report.estimated.total)}; ${report.estimated.method}.`,
    );
  for (const u of report.uncounted)
    lines.push(
      `No token counts in ${u.source} (${String(u.conversations)} of ${String(u.of)} conversations; models: ${u.models.map((m) => m.model).join(', ') || 'none named'}): ${report.estimated ? 'estimated' : 'not counted'}.`,
    );
  if (truncated)
    lines.push(
      `Truncated: ${String(rows.length)} of ${String(report.rows.length)} rows within the result budget; narrow by since/until or group by month.`,
    );
  return lines.join('\n');
}

/** `usage`: tokens and cost of the coding agents' model calls, grouped and filtered. */
export function registerUsage(
  server: McpServer,
  { store, budget }: ToolContext,
  prices: PriceTable,
): void {
  server.registerTool(
    'usage',
    {
      description:
        'Tokens and USD cost of coding agents’ model calls by day, week, month, session, model, source or project; e.g. Codex by month: source codex. Chat exports have no counts.',
      inputSchema: input,
      outputSchema: output.pick({ by: true, total: true, truncated: true }).shape,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      guarded(async () => {
        const report = await usageReport(store.usage, { ...args, prices });
        const render = (rows: readonly UsageRow[], truncated: boolean) =>
          ok(
            text(report, rows, truncated),
            output.parse({ ...report, rows: [...rows], truncated }),
          );
        return fitPage(report.rows, render, budget, (r) => r).result;
      }),
  );
}
