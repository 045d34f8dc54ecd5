import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type ReadResourceResult,
} from '@modelcontextprotocol/sdk/types.js';
import { EDGES, LABELS, type Store } from '../index.js';
import { conversationMarkdown } from './conversation-markdown.js';

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
  const relationships = { ...EDGES, STEP_NEXT: undefined, 'NEXT (TraceStep)': EDGES.STEP_NEXT };
  return JSON.stringify({ labels: LABELS, relationships }, null, 2);
}

async function readConversation(store: Store, uri: string): Promise<ReadResourceResult> {
  const id = decodeURIComponent(uri.slice(CONVERSATION_PREFIX.length));
  const info = id === '' ? undefined : await store.conversation(id);
  if (!info) throw new McpError(RESOURCE_NOT_FOUND, `no conversation with id ${id}`, { uri });
  const messages = await store.thread(info.id);
  const text = conversationMarkdown(info, messages);
  return { contents: [{ uri, mimeType: 'text/markdown', text }] };
}

/**
 * The resources: the graph schema, and each conversation by id. Served by handlers of our own
 * rather than the SDK's registerResource, which answers an unknown resource with -32602 and
 * advertises a resource list that changes, which this one never does.
 */
export function registerResources(server: McpServer, store: Store): void {
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
    if (uri.startsWith(CONVERSATION_PREFIX)) return readConversation(store, uri);
    throw new McpError(
      RESOURCE_NOT_FOUND,
      `no resource ${uri}: the resources are ${SCHEMA_URI} and ${CONVERSATION.uriTemplate}`,
      { uri },
    );
  });
}
