import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { EDGES, LABELS, type ThreadMessage } from '../api/view.js';
import { UnknownIdError } from '../api/query.js';
import type { StoreReader } from '../index.js';
import { codeCellsIn } from '../api/view.js';
import { conversationMarkdown } from './conversation-markdown.js';
import { clipMessage } from './message-clip.js';
import { fitPage, type ResultBudget } from './result-budget.js';
import { conversationById } from './tool-context.js';
import { ok } from './tool-result.js';

/** MCP's error code for a resource that does not exist (the SDK's own answer is -32602). */
export const RESOURCE_NOT_FOUND = -32002;

const SCHEMA_URI = 'chatgraph://schema';
const CONVERSATION_PREFIX = 'chatgraph://conversation/';

const SCHEMA = {
  uri: SCHEMA_URI,
  name: 'schema',
  title: 'The graph schema',
  description: 'Labels, properties and relationship types for run_cypher',
  mimeType: 'application/json',
};

const CONVERSATION = {
  uriTemplate: `${CONVERSATION_PREFIX}{id}`,
  name: 'conversation',
  title: 'A conversation',
  description: "The thread the user saw, as Markdown (chatgraph's or the platform's id)",
  mimeType: 'text/markdown',
};

function schemaText(): string {
  // Stored kinds a query names otherwise are shown by the name Cypher uses.
  const relationships = {
    ...EDGES,
    STEP_NEXT: undefined,
    'NEXT (TraceStep)': EDGES.STEP_NEXT,
    DERIVED_FROM_MEMORY: undefined,
    'DERIVED_FROM (Memory, a PAM derived_from relation)': EDGES.DERIVED_FROM_MEMORY,
  };
  return JSON.stringify({ labels: LABELS, relationships }, null, 2);
}

// A client may put a resource in the model's context whole: past the budget it holds the first
// messages that fit, and says where get_conversation goes on.
async function readConversation(
  store: StoreReader,
  uri: string,
  budget: ResultBudget,
): Promise<ReadResourceResult> {
  const id = decodeURIComponent(uri.slice(CONVERSATION_PREFIX.length));
  // Whole, the platform's, or the start of either; a start several share is said as such.
  const info = await conversationById({ store }, id).catch((error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    throw new McpError(
      RESOURCE_NOT_FOUND,
      error instanceof UnknownIdError ? `no conversation with id ${id}` : message,
      { uri },
    );
  });
  const [messages, graph] = await Promise.all([store.thread(info.id), store.subgraph(info.id)]);
  const cells = codeCellsIn(graph);
  const render = (shown: readonly ThreadMessage[], truncated: boolean) =>
    ok(
      truncated
        ? `${conversationMarkdown(info, shown, { codeCells: cells })}\n(Truncated to the ${String(budget.kb)} KB result budget: ${String(shown.length)} of ${String(messages.length)} messages; get_conversation with id ${info.id} and offset ${String(shown.length)} gives the rest.)`
        : conversationMarkdown(info, shown, { codeCells: cells }),
      {},
    );
  const text = fitPage(messages, render, budget, clipMessage).result.content[0]?.text ?? '';
  return { contents: [{ uri, mimeType: 'text/markdown', text }] };
}

/**
 * The resources: the graph schema, and each conversation by id (within the result budget).
 * Served by handlers of our own
 * rather than the SDK's registerResource, which answers an unknown resource with -32602 and
 * advertises a resource list that changes, which this one never does.
 */
export function registerResources(
  server: McpServer,
  store: StoreReader,
  budget: ResultBudget,
): void {
  const low = server.server;
  low.registerCapabilities({ resources: {} });
  low.setRequestHandler(ListResourcesRequestSchema, () => ({ resources: [SCHEMA] }));
  low.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({
    resourceTemplates: [CONVERSATION],
  }));
  low.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const { uri } = request.params;
    if (uri === SCHEMA_URI)
      return { contents: [{ uri, mimeType: 'application/json', text: schemaText() }] };
    if (uri.startsWith(CONVERSATION_PREFIX)) return readConversation(store, uri, budget);
    throw new McpError(
      RESOURCE_NOT_FOUND,
      `no resource ${uri}: the resources are ${SCHEMA_URI} and ${CONVERSATION.uriTemplate}`,
      { uri },
    );
  });
}
