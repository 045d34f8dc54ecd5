import { z } from 'zod';
import {
  MEMORY_TYPES,
  MemoryInputError,
  MemoryNotFoundError,
  forget,
  listMemories,
  memoryView,
  remember,
  reviseMemory,
  type Neo4jTarget,
  type Recaller,
  type Store,
} from '../index.js';
import { ApiError } from './api-routes.js';

/** What the memory routes work on: the store read from, and the data folder written to. */
export interface MemoryRouteContext {
  store: Store;
  dataDir: string;
  neo4j: Neo4jTarget | undefined;
  /** The search's model, lent to remember and edit (none loaded for each of them). */
  recaller?: Recaller | undefined;
}

const rememberBody = z
  .object({
    content: z.string().min(1).max(20_000),
    type: z.enum(MEMORY_TYPES),
    tags: z.array(z.string()).max(50).optional(),
    confidence: z.number().min(0).max(1).optional(),
    conversationId: z.string().min(1).optional(),
    messageId: z.string().min(1).optional(),
  })
  .strict();

const reviseBody = z
  .object({
    content: z.string().min(1).max(20_000).optional(),
    type: z.enum(MEMORY_TYPES).optional(),
    tags: z.array(z.string()).max(50).optional(),
    confidence: z.number().min(0).max(1).optional(),
  })
  .strict();

function parsed<T>(schema: z.ZodType<T>, body: unknown): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue?.path.join('.') ?? '';
  throw new ApiError(400, `${field ? `${field}: ` : ''}${issue?.message ?? 'bad request'}`);
}

function whole(params: URLSearchParams, name: string): number | undefined {
  const value = params.get(name);
  if (value === null || value === '') return undefined;
  if (!/^\d{1,9}$/.test(value)) throw new ApiError(400, `${name} must be a whole number`);
  return Number(value);
}

function typeParam(params: URLSearchParams): (typeof MEMORY_TYPES)[number] | undefined {
  const value = params.get('type');
  if (value === null || value === '') return undefined;
  const type = MEMORY_TYPES.find((t) => t === value);
  if (!type) throw new ApiError(400, `type is one of ${MEMORY_TYPES.join(', ')}`);
  return type;
}

async function answering<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof MemoryNotFoundError) throw new ApiError(404, error.message);
    if (error instanceof MemoryInputError) throw new ApiError(400, error.message);
    throw error;
  }
}

/** GET /api/memories: a page of memories (`query`, `type`, `tag`, `limit`, `offset`, `all`). */
export function listRoute(context: MemoryRouteContext, params: URLSearchParams): Promise<unknown> {
  return answering(() =>
    listMemories(context.store, context.dataDir, {
      query: params.get('query')?.trim() || undefined,
      type: typeParam(params),
      tag: params.get('tag')?.trim() || undefined,
      limit: whole(params, 'limit'),
      offset: whole(params, 'offset'),
      status: params.get('all') === '1' ? 'all' : 'active',
    }),
  );
}

const lentModel = ({ recaller }: MemoryRouteContext) =>
  recaller ? () => recaller.embedder() : undefined;

/** POST /api/memories: remembers (a person's memory: `manual`). */
export function rememberRoute(context: MemoryRouteContext, body: unknown): Promise<unknown> {
  const input = parsed(rememberBody, body);
  return answering(async () => {
    const { memory, created, vector } = await remember(
      { dataDir: context.dataDir, neo4j: context.neo4j, embedder: lentModel(context) },
      { ...input, method: 'manual' },
    );
    return { created, vector, memory: await memoryView(memory, context.store) };
  });
}

/** PUT /api/memories/:id: an edit, as a new memory superseding this one. */
export function reviseRoute(
  context: MemoryRouteContext,
  id: string,
  body: unknown,
): Promise<unknown> {
  const revision = parsed(reviseBody, body);
  return answering(async () => {
    const { previous, memory, vector } = await reviseMemory(
      { dataDir: context.dataDir, neo4j: context.neo4j, embedder: lentModel(context) },
      id,
      revision,
    );
    return {
      vector,
      previous: await memoryView(previous, context.store),
      memory: await memoryView(memory, context.store),
    };
  });
}

/** DELETE /api/memories/:id: forgets (retracted, kept in the bundle). */
export function forgetRoute(context: MemoryRouteContext, id: string): Promise<unknown> {
  return answering(async () => {
    const memory = await forget({ dataDir: context.dataDir, neo4j: context.neo4j }, id);
    return memoryView(memory, context.store);
  });
}
