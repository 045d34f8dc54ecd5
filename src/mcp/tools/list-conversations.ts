import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { QueryError, type ConversationInfo } from '../../api/query.js';
import { platformUrlsOf } from '../../api/view.js';
import { listedConversationOutput, nextOffsetOutput, truncatedOutput } from '../output-schemas.js';
import { clipText, fitPage } from '../result-budget.js';
import type { ToolContext } from '../tool-context.js';
import { dateInput, limitInput, offsetInput, sourceInput } from '../tool-inputs.js';
import { guarded, ok } from '../tool-result.js';

/** The largest page of conversations. */
export const LIST_LIMIT = 200;

const output = z.object({
  total: z.number().int(),
  offset: z.number().int(),
  nextOffset: nextOffsetOutput,
  conversations: z.array(listedConversationOutput),
  truncated: truncatedOutput,
});

type Listed = ConversationInfo & { url?: string };

function line(c: Listed): string {
  return `- ${c.createdAt.slice(0, 10)} [${c.source}] "${c.name}" (${String(c.messageCount)} messages, id ${c.id}, platform id ${c.platformId}${c.url ? `, on the platform <${c.url}>` : ''})`;
}

/** `list_conversations`: conversations by source, dates and title words, a page at a time. */
export function registerListConversations(server: McpServer, { store, budget }: ToolContext): void {
  server.registerTool(
    'list_conversations',
    {
      description:
        'Browse conversations by source, date and title, sorted; to find by content, use search_conversations.',
      inputSchema: {
        source: sourceInput('only this source'),
        since: dateInput('created from'),
        until: z.string().optional().describe('created before, as since'),
        title: z.string().optional().describe('words in the title'),
        sort: z.enum(['newest', 'oldest', 'most-messages']).optional().describe('default newest'),
        offset: offsetInput,
        limit: limitInput(LIST_LIMIT, 20),
      },
      outputSchema: output.shape,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      guarded(async () => {
        const offset = args.offset ?? 0;
        const page = await store.listConversations({
          ...args,
          source: args.source as string | undefined,
          offset,
          limit: args.limit ?? 20,
        });
        if (offset > 0 && offset >= page.total)
          throw new QueryError(
            `offset ${String(offset)} is past the end: ${String(page.total)} conversations match`,
          );
        // The platform's address of each conversation of the page, where its export tells.
        const urls = await platformUrlsOf(store, page.items);
        const listed: Listed[] = page.items.map((c) => {
          const url = urls.get(c.id);
          return url ? { ...c, url } : c;
        });
        const render = (shown: readonly Listed[], truncated: boolean) => {
          const end = offset + shown.length;
          const nextOffset = end < page.total ? end : null;
          const lines = shown.map(line);
          if (page.total === 0) lines.push('No conversations match.');
          else
            lines.push(
              `(${String(offset + 1)}–${String(end)} of ${String(page.total)}${nextOffset !== null ? `; next offset ${String(nextOffset)}` : ''})`,
            );
          if (truncated)
            lines.push(
              `Truncated to stay within the ${String(budget.kb)} KB result budget: call again with offset ${String(nextOffset ?? end)}, or narrow the filters.`,
            );
          const structured = output.parse({
            total: page.total,
            offset,
            nextOffset,
            conversations: shown,
            truncated,
          });
          return ok(lines.join('\n'), structured);
        };
        const shrink = (c: Listed, max: number) => ({
          ...c,
          name: clipText(c.name, max),
        });
        return fitPage(listed, render, budget, shrink).result;
      }),
  );
}
