import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { QueryError } from '../../api/query.js';
import type { ThreadMessage } from '../../api/view.js';
import { attachmentsMarkdown, conversationLine } from '../conversation-markdown.js';
import { clipMessage, cutIds, readOnHint } from '../message-clip.js';
import {
  conversationOutput,
  matchedIdOutput,
  messageOutput,
  truncatedOutput,
} from '../output-schemas.js';
import { fitPage } from '../result-budget.js';
import { messageIdByStart, type ToolContext } from '../tool-context.js';
import { guarded, ok } from '../tool-result.js';

/** The most messages before or after the one asked for. */
export const CONTEXT_LIMIT = 50;

const output = z.object({
  messageId: z.string(),
  matchedId: matchedIdOutput,
  conversation: conversationOutput,
  messages: z.array(messageOutput),
  truncated: truncatedOutput,
});

type Found = { id: string; matchedId: 'chatgraph' | 'platform'; messages: ThreadMessage[] };

// chatgraph's message id first (indexed); failing that, the platform's, which a search over
// the messages' provider_message_id finds (it may name messages in two conversations).
async function findContext(
  context: ToolContext,
  id: string,
  before: number,
  after: number,
): Promise<Found> {
  try {
    return {
      id,
      matchedId: 'chatgraph',
      messages: await context.store.messageContext(id, before, after),
    };
  } catch (error) {
    if (!(error instanceof QueryError)) throw error;
  }
  const rows = await context.store.cypher(
    'MATCH (m:Message) WHERE m.provider_message_id = $id RETURN m.id AS id LIMIT 5',
    { id },
    context.limits,
  );
  const ids = rows.map((row) => String(row.id));
  if (ids.length > 1)
    throw new QueryError(
      `the platform's message id ${id} names ${String(ids.length)} messages; give chatgraph's id, one of: ${ids.join(', ')}`,
    );
  // Neither whole: the start of chatgraph's id (as `thread` prints it short).
  const only = ids[0] ?? (await messageIdByStart(context, id));
  if (only === undefined)
    throw new QueryError(`no message with id ${id} (neither chatgraph's nor the platform's)`);
  return {
    id: only,
    matchedId: ids[0] === undefined ? 'chatgraph' : 'platform',
    messages: await context.store.messageContext(only, before, after),
  };
}

async function conversationOf({ store, limits }: ToolContext, messageId: string) {
  const [row] = await store.cypher(
    'MATCH (c:Conversation)-[:HAS_MESSAGE]->(m:Message {id: $id}) RETURN c.id AS id',
    { id: messageId },
    limits,
  );
  const info = row ? await store.conversation(String(row.id)) : undefined;
  if (!info) throw new QueryError(`the message ${messageId} belongs to no conversation`);
  return info;
}

function messageLine(m: ThreadMessage, target: string): string {
  const attached = m.attachments.length > 0 ? `\n\n${attachmentsMarkdown(m.attachments)}` : '';
  return `${m.id === target ? '→ ' : ''}[${m.role} · ${m.createdAt} · message ${m.id}] ${m.content}${attached}`;
}

/** `get_message_context`: a message with those around it, each with its id. */
export function registerGetMessageContext(server: McpServer, context: ToolContext): void {
  const { budget } = context;
  server.registerTool(
    'get_message_context',
    {
      description:
        'A message (id from a search hit or get_conversation) with the messages around it.',
      inputSchema: {
        message_id: z.string().min(1).describe('message id'),
        before: z.number().int().min(0).max(CONTEXT_LIMIT).optional().describe('default 3'),
        after: z.number().int().min(0).max(CONTEXT_LIMIT).optional().describe('default 3'),
      },
      outputSchema: output.shape,
      annotations: { readOnlyHint: true },
    },
    (args) =>
      guarded(async () => {
        const found = await findContext(
          context,
          args.message_id,
          args.before ?? 3,
          args.after ?? 3,
        );
        const info = await conversationOf(context, found.id);
        const render = (groups: readonly (readonly ThreadMessage[])[], truncated: boolean) => {
          const shown = groups[0] ?? [];
          const lines = [
            `In "${info.name}": ${conversationLine(info)}`,
            `(found by ${found.matchedId === 'chatgraph' ? "chatgraph's" : "the platform's"} message id)`,
            '',
            ...shown.map((m) => messageLine(m, found.id)),
          ];
          const cut = cutIds(shown, found.messages);
          if (truncated)
            lines.push(
              `Truncated to stay within the ${String(budget.kb)} KB result budget: long messages were cut; ask for fewer messages before and after.`,
            );
          if (cut[0] !== undefined) lines.push(readOnHint(cut[0], budget.maxBytes));
          const structured = output.parse({
            messageId: found.id,
            matchedId: found.matchedId,
            conversation: info,
            messages: shown,
            truncated,
          });
          return ok(lines.join('\n\n'), structured);
        };
        // The context is kept whole (the message asked for is its middle): when too large, every
        // message in it is cut rather than some left out.
        const shrink = (group: readonly ThreadMessage[], max: number) =>
          group.map((m) => clipMessage(m, max));
        return fitPage([found.messages], render, budget, shrink).result;
      }),
  );
}
