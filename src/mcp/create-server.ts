import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  SERVER_QUERY_LIMITS,
  SHIPPED_PRICES,
  type PriceTable,
  type QueryLimits,
  type Recaller,
} from '../api/query.js';
import { VERSION, type DataFolder } from '../index.js';
import { registerMemoryTools } from './memory-tools.js';
import { registerResources } from './resources.js';
import { instructionsFor, type Holdings } from './instructions.js';
import { DEFAULT_ANSWER_BYTES, resultBudget } from './result-budget.js';
import type { ToolContext } from './tool-context.js';
import { recordTools, serveToolList } from './tool-list.js';
import { registerGetConversation } from './tools/get-conversation.js';
import { registerGetMessageContext } from './tools/get-message-context.js';
import { registerListConversations } from './tools/list-conversations.js';
import { registerRunCypher } from './tools/run-cypher.js';
import { registerSearchTool } from './tools/search-conversations.js';
import { registerStats } from './tools/stats.js';
import { registerUsage } from './tools/usage.js';

/** How the MCP server is set up. */
export interface McpOptions {
  /** The limits of a run_cypher query (10 s and 512 MB unless given). */
  queryLimits?: QueryLimits | undefined;
  /** Search in every mode (the folder's, opened for this server, when not given). */
  recaller?: Recaller | undefined;
  /** The most one answer may hold, text and structured content together, in bytes (24 KB unless given). */
  answerBudget?: number | undefined;
  /** What the store holds, told to agents in the initialize result (a general text without it). */
  holdings?: Holdings | undefined;
  /** The prices the usage tool costs calls with (the shipped table unless given). */
  prices?: PriceTable | undefined;
}

/**
 * The MCP server over a data folder: tools to search and read its history (through the
 * folder's reader, which has no write path), to remember and forget (the folder's verbs, as
 * the CLI's), and resources.
 */
export async function createServer(
  folder: DataFolder,
  options: McpOptions = {},
): Promise<McpServer> {
  const budget = resultBudget(options.answerBudget ?? DEFAULT_ANSWER_BYTES);
  const instructions = instructionsFor({
    holdings: options.holdings,
    memory: true,
    budgetKb: budget.kb,
  });
  const server = new McpServer({ name: 'chatgraph', version: VERSION }, { instructions });
  const store = await folder.reader();
  // A recaller given is its giver's to close (serveMcpHttp shares one across requests); one made
  // here closes with this server, and the model it opened with it.
  const recaller = options.recaller ?? (await folder.recaller());
  const made = options.recaller ? undefined : recaller;
  const context: ToolContext = {
    store,
    recaller,
    limits: options.queryLimits ?? SERVER_QUERY_LIMITS,
    budget,
    folder,
  };
  const tools = recordTools(server);
  registerSearchTool(server, context);
  registerGetConversation(server, context);
  registerListConversations(server, context);
  registerGetMessageContext(server, context);
  registerRunCypher(server, context);
  registerStats(server, context);
  registerUsage(server, context, options.prices ?? SHIPPED_PRICES);
  registerMemoryTools(server, context);
  // The tools are the same for the server's whole life: no list_changed notifications to expect.
  server.server.registerCapabilities({ tools: { listChanged: false } });
  serveToolList(server, tools);
  registerResources(server, store, context.budget);
  if (made) {
    const before = server.server.onclose;
    server.server.onclose = () => {
      before?.();
      void made.close();
    };
  }
  return server;
}
