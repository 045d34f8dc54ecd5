import type { McpServer, RegisteredTool } from '@modelcontextprotocol/sdk/server/mcp.js';
import { normalizeObjectSchema } from '@modelcontextprotocol/sdk/server/zod-compat.js';
import { toJsonSchemaCompat } from '@modelcontextprotocol/sdk/server/zod-json-schema-compat.js';
import { ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js';
import {
  compactSchema,
  dropNoise,
  inlineRefs,
  shapeName,
  type Json,
  type Shapes,
} from './compact-schema.js';
import { z } from 'zod';
import {
  conversationHitOutput,
  conversationOutput,
  hitOutput,
  memoryHitOutput,
  memoryOutput,
  memoryRefOutput,
  messageOutput,
  passageOutput,
} from './output-schemas.js';

/** The tools registered on a server, by name, in the order they were registered. */
export type ToolTable = Map<string, RegisteredTool>;

/**
 * Keeps a table of the tools registered on `server` from now on: the SDK keeps its own
 * private, and the compact tools/list below needs their zod schemas.
 */
export function recordTools(server: McpServer): ToolTable {
  const tools: ToolTable = new Map();
  const register = server.registerTool.bind(server);
  const recording: typeof server.registerTool = (name, config, callback) => {
    const tool = register(name, config, callback);
    tools.set(name, tool);
    return tool;
  };
  server.registerTool = recording;
  return tools;
}

type Schema = Parameters<typeof toJsonSchemaCompat>[0];

function jsonOf(schema: Schema, io: 'input' | 'output'): Json {
  return JSON.parse(
    JSON.stringify(toJsonSchemaCompat(schema, { strictUnions: true, pipeStrategy: io })),
  ) as Json;
}

type Shape = [name: string, full: z.AnyZodObject, abridged: z.AnyZodObject];

// The shapes tools share, and what tools/list names of each: the fields an agent reads and
// chains on (ids, titles, content, dates). The others still come: an object schema allows them.
const SHAPES: Shape[] = [
  [
    'conversation',
    conversationOutput,
    conversationOutput.pick({ id: true, name: true, source: true, createdAt: true }),
  ],
  [
    'message',
    messageOutput,
    messageOutput.pick({ id: true, role: true, content: true, createdAt: true }),
  ],
  [
    'hit',
    hitOutput,
    hitOutput.pick({ conversationId: true, messageId: true, title: true, snippet: true }),
  ],
  [
    'memoryHit',
    memoryHitOutput,
    memoryHitOutput.pick({ snippet: true }).extend({ memory: memoryRefOutput.pick({ id: true }) }),
  ],
  ['passage', passageOutput, passageOutput.pick({ messageId: true, snippet: true, kind: true })],
  [
    'conversationHit',
    conversationHitOutput,
    conversationHitOutput.pick({
      conversationId: true,
      title: true,
      source: true,
      createdAt: true,
      best: true,
      more: true,
      passages: true,
    }),
  ],
  [
    'memory',
    memoryOutput,
    memoryOutput.pick({ id: true, content: true, tags: true }).extend({ type: z.string() }),
  ],
];

function shapes(): Shapes {
  const plain = (schema: z.AnyZodObject) => dropNoise(inlineRefs(jsonOf(schema, 'output')));
  return {
    abridged: new Map(SHAPES.map(([, full, short]) => [shapeName(plain(full)), plain(short)])),
    names: new Map(SHAPES.map(([name, , short]) => [shapeName(plain(short)), name])),
  };
}

// MCP's defaults: a tool is taken to write, destructively, not idempotently, in an open world.
const DEFAULT_HINTS: Record<string, boolean> = {
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
};

function withoutDefaults(annotations: NonNullable<Tool['annotations']>): Tool['annotations'] {
  return Object.fromEntries(
    Object.entries(annotations).filter(([key, value]) => DEFAULT_HINTS[key] !== value),
  );
}

const EMPTY_INPUT = { type: 'object', properties: {} };

/** One tool as tools/list gives it: its schemas compact, nothing the SDK adds by default. */
function describeTool(name: string, tool: RegisteredTool, known: Shapes): Tool {
  const input = normalizeObjectSchema(tool.inputSchema);
  const output = normalizeObjectSchema(tool.outputSchema);
  const inputSchema = input ? compactSchema(jsonOf(input, 'input'), false) : EMPTY_INPUT;
  return {
    name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    inputSchema: inputSchema as Tool['inputSchema'],
    ...(output
      ? {
          outputSchema: compactSchema(
            jsonOf(output, 'output'),
            true,
            known,
          ) as Tool['outputSchema'],
        }
      : {}),
    ...(tool.annotations !== undefined ? { annotations: withoutDefaults(tool.annotations) } : {}),
  };
}

/**
 * Answers tools/list with compact schemas (issue 26 §8): the SDK's own answer repeats every
 * shape in full, `$schema` and `additionalProperties: false` included, 30 KB for ten tools.
 * Computed once: the tools never change (no listChanged).
 */
export function serveToolList(server: McpServer, tools: ToolTable): void {
  let listed: Tool[] | undefined;
  server.server.setRequestHandler(ListToolsRequestSchema, () => {
    if (!listed) {
      const known = shapes();
      listed = [...tools]
        .filter(([, tool]) => tool.enabled)
        .map(([name, tool]) => describeTool(name, tool, known));
    }
    return { tools: listed };
  });
}
