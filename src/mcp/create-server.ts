import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  EDGES,
  LABELS,
  QueryError,
  SERVER_QUERY_LIMITS,
  VERSION,
  createRecaller,
  type Neo4jTarget,
  type QueryLimits,
  type Recaller,
  type Store,
} from '../index.js';
import { attachmentsMarkdown, conversationMarkdown } from './conversation-markdown.js';
import { registerMemoryTools } from './memory-tools.js';
import { SEARCH_LIMIT, registerSearchTool } from './search-tool.js';

/** Limits that keep one tool result from flooding an agent's context. */
export const LIMITS = {
  search: SEARCH_LIMIT,
  list: 200,
  page: 200,
  context: 50,
  cypherRows: 500,
} as const;

/** How the MCP server is set up. */
export interface McpOptions {
  /** The limits of a run_cypher query (10 s and 512 MB unless given). */
  queryLimits?: QueryLimits | undefined;
  /** Search in every mode (by words only, with the store's vectors if any, when not given). */
  recaller?: Recaller | undefined;
  /** The data folder memories are written to (remember, forget…); no memory tools without it. */
  memory?: { dataDir: string; neo4j?: Neo4jTarget | undefined } | undefined;
}

type ToolResult = {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

function ok(text: string, structured: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

function failure(error: unknown): ToolResult {
  const message = error instanceof Error ? error.message : String(error);
  return { content: [{ type: 'text', text: message }], isError: true };
}

// Every tool answers errors in its input (unknown ids, bad dates, limits, writing Cypher) as a
// tool error: the server goes on.
async function guarded(run: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await run();
  } catch (error) {
    return failure(error);
  }
}

/** The MCP server over a store: tools to search and read the history, and resources. */
export function createServer(store: Store, options: McpOptions = {}): McpServer {
  const server = new McpServer({ name: 'chatgraph', version: VERSION });
  const limits = options.queryLimits ?? SERVER_QUERY_LIMITS;
  const recaller = options.recaller ?? createRecaller(store);

  registerSearchTool(server, recaller, guarded);
  if (options.memory) registerMemoryTools(server, { store, guarded, ...options.memory });

  server.registerTool(
    'get_conversation',
    {
      title: 'Read a conversation',
      description:
        'The messages of one conversation, a page at a time: the thread the user saw (default) or every branch in tree order. Use offset and limit to page through long conversations.',
      inputSchema: {
        id: z.string().min(1).describe("chatgraph's or the platform's conversation id"),
        branch: z.enum(['shown', 'all']).optional().describe('shown (default) or all branches'),
        offset: z.number().int().min(0).optional(),
        limit: z
          .number()
          .int()
          .min(1)
          .max(LIMITS.page)
          .optional()
          .describe(`at most ${LIMITS.page}, default 50`),
      },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      guarded(async () => {
        const info = await store.conversation(args.id);
        if (!info) throw new QueryError(`no conversation with id ${args.id}`);
        const all = await store.thread(info.id, { allBranches: args.branch === 'all' });
        const offset = args.offset ?? 0;
        const limit = args.limit ?? 50;
        const messages = all.slice(offset, offset + limit);
        const next = offset + limit < all.length ? offset + limit : null;
        const text = `${conversationMarkdown(info, messages)}\n(messages ${offset + 1}–${offset + messages.length} of ${all.length}${next !== null ? `; next offset ${next}` : ''})`;
        return ok(text, {
          conversation: info,
          messages,
          total: all.length,
          offset,
          nextOffset: next,
        });
      }),
  );

  server.registerTool(
    'list_conversations',
    {
      title: 'List conversations',
      description:
        'Conversations filtered by source, dates and title words, sorted, a page at a time.',
      inputSchema: {
        source: z.string().optional(),
        since: z.string().optional().describe('ISO date: created at or after'),
        until: z.string().optional().describe('ISO date: created before'),
        title: z.string().optional().describe('words the title contains'),
        sort: z.enum(['newest', 'oldest', 'most-messages']).optional(),
        offset: z.number().int().min(0).optional(),
        limit: z
          .number()
          .int()
          .min(1)
          .max(LIMITS.list)
          .optional()
          .describe(`at most ${LIMITS.list}, default 20`),
      },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      guarded(async () => {
        const page = await store.listConversations({ ...args, limit: args.limit ?? 20 });
        const text =
          page.items.length === 0
            ? 'No conversations match.'
            : `${page.items.map((c) => `- ${c.createdAt.slice(0, 10)} [${c.source}] "${c.name}" (${c.messageCount} messages, id ${c.id})`).join('\n')}\n(${page.items.length} of ${page.total})`;
        return ok(text, { total: page.total, conversations: page.items });
      }),
  );

  server.registerTool(
    'get_message_context',
    {
      title: 'A message in its context',
      description: 'A message with the messages before and after it in its conversation.',
      inputSchema: {
        message_id: z.string().min(1),
        before: z.number().int().min(0).max(LIMITS.context).optional().describe('default 3'),
        after: z.number().int().min(0).max(LIMITS.context).optional().describe('default 3'),
      },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      guarded(async () => {
        const messages = await store.messageContext(
          args.message_id,
          args.before ?? 3,
          args.after ?? 3,
        );
        const text = messages
          .map(
            (m) =>
              `${m.id === args.message_id ? '→ ' : ''}[${m.role} · ${m.createdAt}] ${m.content}${m.attachments.length > 0 ? `\n\n${attachmentsMarkdown(m.attachments)}` : ''}`,
          )
          .join('\n\n');
        return ok(text, { messages });
      }),
  );

  server.registerTool(
    'run_cypher',
    {
      title: 'Run a read-only Cypher query',
      description: `Cypher over the context graph (see the chatgraph://schema resource). Read-only: writes are refused. At most ${LIMITS.cypherRows} rows, ${limits.timeoutSeconds} seconds and ${limits.memoryMb} MB.`,
      inputSchema: {
        query: z.string().min(1),
        params: z.record(z.unknown()).optional().describe('query parameters, passed as parameters'),
      },
      annotations: { readOnlyHint: true },
    },
    (args) =>
      guarded(async () => {
        const rows = await store.cypher(args.query, args.params ?? {}, limits);
        const truncated = rows.length > LIMITS.cypherRows;
        const shown = rows.slice(0, LIMITS.cypherRows);
        const text = `${JSON.stringify(shown, null, 2)}${truncated ? `\n(${rows.length} rows; the first ${LIMITS.cypherRows} are shown)` : ''}`;
        return ok(text, { rows: shown, rowCount: rows.length, truncated });
      }),
  );

  server.registerTool(
    'stats',
    {
      title: 'History statistics',
      description: 'Counts of conversations and messages per source, per month and per role.',
      inputSchema: {},
      annotations: { readOnlyHint: true },
    },
    () =>
      guarded(async () => {
        const stats = await store.stats();
        const text = `${stats.conversations} conversations, ${stats.messages} messages.\n${stats.bySource.map((s) => `- ${s.source}: ${s.conversations} conversations, ${s.messages} messages`).join('\n')}`;
        return ok(text, { ...stats });
      }),
  );

  server.registerResource(
    'conversation',
    new ResourceTemplate('chatgraph://conversation/{id}', { list: undefined }),
    {
      title: 'A conversation',
      description: 'The thread the user saw, as Markdown',
      mimeType: 'text/markdown',
    },
    async (uri, variables) => {
      const id = String(variables.id);
      const info = await store.conversation(id);
      if (!info) throw new QueryError(`no conversation with id ${id}`);
      const messages = await store.thread(info.id);
      return {
        contents: [
          { uri: uri.href, mimeType: 'text/markdown', text: conversationMarkdown(info, messages) },
        ],
      };
    },
  );

  server.registerResource(
    'schema',
    'chatgraph://schema',
    {
      title: 'The graph schema',
      description: 'Labels, properties and relationship types for run_cypher',
      mimeType: 'application/json',
    },
    (uri) => ({
      contents: [
        {
          uri: uri.href,
          mimeType: 'application/json',
          text: JSON.stringify(
            {
              labels: LABELS,
              relationships: {
                ...EDGES,
                STEP_NEXT: undefined,
                'NEXT (TraceStep)': EDGES.STEP_NEXT,
              },
            },
            null,
            2,
          ),
        },
      ],
    }),
  );
  return server;
}
