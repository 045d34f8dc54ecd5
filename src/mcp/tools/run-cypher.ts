import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { Row } from '../../api/query.js';
import { truncatedOutput } from '../output-schemas.js';
import { clipStrings, fitPage } from '../result-budget.js';
import type { ToolContext } from '../tool-context.js';
import { guarded, ok } from '../tool-result.js';

/** The most rows one query returns to an agent. */
export const CYPHER_ROWS = 500;

const output = z.object({
  rows: z.array(z.record(z.unknown())),
  rowCount: z.number().int(),
  shown: z.number().int(),
  truncated: truncatedOutput,
});

function note(shown: number, total: number, kb: number, cut: boolean): string {
  if (cut)
    return `Truncated: the first row alone is larger than the ${String(kb)} KB result budget, so its long values were cut. Return shorter values, e.g. substring(m.content, 0, 2000).`;
  if (shown < total)
    return `Truncated: ${String(shown)} of ${String(total)} rows are shown (${total > CYPHER_ROWS ? `at most ${String(CYPHER_ROWS)} rows, ` : ''}within the ${String(kb)} KB result budget). For the next rows add SKIP ${String(shown)} LIMIT ${String(shown)} to the query, or narrow it: fewer rows (WHERE, LIMIT) or shorter columns (substring(m.content, 0, 200)).`;
  return `(${String(total)} row${total === 1 ? '' : 's'})`;
}

/** `run_cypher`: read-only Cypher, its rows within the row cap and the result budget. */
export function registerRunCypher(server: McpServer, { store, limits, budget }: ToolContext): void {
  server.registerTool(
    'run_cypher',
    {
      description: `Read-only Cypher (schema: chatgraph://schema) for counts and what search cannot answer; ${String(CYPHER_ROWS)} rows and ${String(limits.timeoutSeconds)} s at most.`,
      inputSchema: {
        query: z.string().min(1).describe('Cypher; $name for parameters'),
        params: z.record(z.unknown()).optional().describe('parameters by name'),
      },
      outputSchema: output.shape,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      guarded(async () => {
        const rows = await store.cypher(args.query, args.params ?? {}, limits);
        const capped = rows.slice(0, CYPHER_ROWS);
        const render = (shown: readonly Row[], truncated: boolean) => {
          const cut = shown.length === 1 && shown[0] !== capped[0];
          const cappedOut = shown.length < rows.length;
          const text = [
            ...shown.map((row) => JSON.stringify(row)),
            note(shown.length, rows.length, budget.kb, cut),
          ].join('\n');
          return ok(
            text,
            output.parse({
              rows: shown,
              rowCount: rows.length,
              shown: shown.length,
              truncated: truncated || cappedOut,
            }),
          );
        };
        const clipRow = (row: Row, max: number) => clipStrings(row, max) as Row;
        return fitPage(capped, render, budget, clipRow).result;
      }),
  );
}
