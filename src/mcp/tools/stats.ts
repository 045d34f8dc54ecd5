import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Stats } from '../../api/query.js';
import { truncatedOutput } from '../output-schemas.js';
import { fitPage } from '../result-budget.js';
import type { ToolContext } from '../tool-context.js';
import { guarded, ok } from '../tool-result.js';

const count = z.number().int();
const output = z.object({
  conversations: count,
  messages: count,
  bySource: z.array(z.object({ source: z.string(), conversations: count, messages: count })),
  byMonth: z.array(z.object({ month: z.string(), source: z.string(), messages: count })),
  byRole: z.array(z.object({ role: z.string(), messages: count })),
  byModel: z.array(z.object({ model: z.string(), messages: count })),
  truncated: truncatedOutput,
});

type Month = Stats['byMonth'][number];

/** `stats`: counts per source, month, role and model. */
export function registerStats(server: McpServer, { store, budget }: ToolContext): void {
  server.registerTool(
    'stats',
    {
      description: 'Counts of conversations and messages by source, month, role and model.',
      inputSchema: {},
      // tools/list names the totals; the breakdowns come too (the text has them all).
      outputSchema: output.pick({ conversations: true, messages: true, truncated: true }).shape,
      annotations: { readOnlyHint: true },
    },
    () =>
      guarded(async () => {
        const stats = await store.stats();
        const render = (months: readonly Month[], truncated: boolean) => {
          const lines = [
            `${String(stats.conversations)} conversations, ${String(stats.messages)} messages.`,
            ...stats.bySource.map(
              (s) =>
                `- ${s.source}: ${String(s.conversations)} conversations, ${String(s.messages)} messages`,
            ),
            `Roles: ${stats.byRole.map((r) => `${r.role} ${String(r.messages)}`).join(', ')}.`,
          ];
          if (stats.byModel.length > 0)
            lines.push(
              `Models: ${stats.byModel.map((m) => `${m.model} ${String(m.messages)}`).join(', ')}.`,
            );
          if (truncated)
            lines.push(
              `Truncated: byMonth holds ${String(months.length)} of ${String(stats.byMonth.length)} months to stay within the ${String(budget.kb)} KB result budget; run_cypher counts any month.`,
            );
          return ok(lines.join('\n'), output.parse({ ...stats, byMonth: months, truncated }));
        };
        return fitPage(stats.byMonth, render, budget, (month) => month).result;
      }),
  );
}
