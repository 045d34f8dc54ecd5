import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { QueryError } from '../../api/query.js';
import type { ThreadMessage } from '../../api/view.js';
import { codeCellsIn, platformUrlOf } from '../../api/view.js';
import { conversationMarkdown, saysSomething } from '../conversation-markdown.js';
import { clipMessage, cutIds, readOnHint } from '../message-clip.js';
import {
  conversationOutput,
  matchedIdOutput,
  messageOutput,
  nextOffsetOutput,
  truncatedOutput,
} from '../output-schemas.js';
import { fitPage } from '../result-budget.js';
import { conversationById, type ToolContext } from '../tool-context.js';
import { limitInput, offsetInput } from '../tool-inputs.js';
import { guarded, ok } from '../tool-result.js';

/** The largest page of messages. */
export const PAGE_LIMIT = 200;

const output = z.object({
  conversation: conversationOutput,
  url: z.string().nullable(),
  matchedId: matchedIdOutput,
  messages: z.array(messageOutput),
  total: z.number().int(),
  offset: z.number().int(),
  nextOffset: nextOffsetOutput,
  truncated: truncatedOutput,
});

function pastTheEnd(offset: number, total: number, what: string): QueryError {
  return new QueryError(
    `offset ${String(offset)} is past the end: the ${what} has ${String(total)} messages (offsets 0 to ${String(total - 1)})`,
  );
}

/** `get_conversation`: a conversation's messages, a page at a time, within the result budget. */
export function registerGetConversation(
  server: McpServer,
  { store, budget, folder }: ToolContext,
): void {
  server.registerTool(
    'get_conversation',
    {
      description:
        'Read a conversation (id from a search or list) as Markdown, a page of messages at a time.',
      inputSchema: {
        id: z.string().min(1).describe('conversation id'),
        branch: z
          .enum(['shown', 'all'])
          .optional()
          .describe('shown (default): the thread the user saw; all: all branches'),
        offset: offsetInput,
        limit: limitInput(PAGE_LIMIT, 50),
      },
      outputSchema: output.shape,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      guarded(async () => {
        const info = await conversationById({ store }, args.id);
        const matchedId = info.id.startsWith(args.id.trim()) ? 'chatgraph' : 'platform';
        const [all, graph, view] = await Promise.all([
          store.thread(info.id, { allBranches: args.branch === 'all' }),
          store.subgraph(info.id),
          // The bundle's side: each message's sources, and the platform's address.
          folder.view(info.id),
        ]);
        const cells = codeCellsIn(graph);
        const url = view?.url ?? platformUrlOf(info, graph);
        const sources = new Map(view?.messages.map((m) => [m.id, m.citations]) ?? []);
        const offset = args.offset ?? 0;
        if (offset > 0 && offset >= all.length)
          throw pastTheEnd(offset, all.length, args.branch === 'all' ? 'tree' : 'thread');
        const page = all.slice(offset, offset + (args.limit ?? 50));
        const render = (shown: readonly ThreadMessage[], truncated: boolean) => {
          const end = offset + shown.length;
          const nextOffset = end < all.length ? end : null;
          const lines = [
            conversationMarkdown(info, shown, { codeCells: cells, url, sources }),
            `(found by ${matchedId === 'chatgraph' ? "chatgraph's" : "the platform's"} conversation id; messages ${String(offset + 1)}–${String(end)} of ${String(all.length)}${nextOffset !== null ? `; next offset ${String(nextOffset)}` : '; the last page'})`,
          ];
          if (truncated)
            lines.push(
              `Truncated to stay within the ${String(budget.kb)} KB result budget: call again with offset ${String(nextOffset ?? end)}, or a smaller limit.`,
            );
          const cut = cutIds(shown, page);
          if (cut[0] !== undefined) lines.push(readOnHint(cut[0], budget.maxBytes));
          const structured = output.parse({
            conversation: info,
            url,
            matchedId,
            // Empty messages are left out, as from the Markdown; offsets still count them.
            messages: shown.filter(saysSomething),
            total: all.length,
            offset,
            nextOffset,
            truncated,
          });
          return ok(lines.join('\n'), structured);
        };
        return fitPage(page, render, budget, clipMessage).result;
      }),
  );
}
