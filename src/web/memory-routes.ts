import type { z } from 'zod';
import { MemoryInputError, MemoryNotFoundError, memoryView } from '../api/memory.js';
import type { DataFolder, StoreReader } from '../index.js';
import type { Recaller } from '../api/query.js';
import { ApiError } from './api-error.js';
import type * as request from './api-requests.js';
import type { Answer } from './api-schema.js';

/** What the memory routes work on: the store read from, and the data folder written to. */
export interface MemoryRouteContext {
  store: StoreReader;
  folder: DataFolder;
  /** The search's model, lent to remember and edit (none loaded for each of them). */
  recaller?: Recaller | undefined;
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

// The API's memory types (its schemas import zod alone) are checked against the library's both
// ways by the types here: a query's type is the library's MemoryType, a view's type the API's.

/** GET /api/memories: a page of memories (`query`, `type`, `tag`, `limit`, `offset`, `all`). */
export function listRoute(
  context: MemoryRouteContext,
  query: z.output<typeof request.memoriesQuery>,
): Promise<Answer<'listMemories'>> {
  return answering(() =>
    context.folder.memories({
      query: query.query,
      type: query.type,
      tag: query.tag,
      limit: query.limit,
      offset: query.offset,
      status: query.all ? 'all' : 'active',
    }),
  );
}

/**
 * The longest a memory change waits for another writer (an import) before the page is told
 * to try again (503 with Retry-After), rather than a request hanging.
 */
export const MEMORY_LOCK_WAIT_MS = 3000;

const lentModel = ({ recaller }: MemoryRouteContext) =>
  recaller ? () => recaller.embedder() : undefined;

/** POST /api/memories: remembers (a person's memory: `manual`). */
export function rememberRoute(
  context: MemoryRouteContext,
  input: z.output<typeof request.rememberBody>,
): Promise<Answer<'remember'>> {
  return answering(async () => {
    const { memory, created, vector, notes } = await context.folder.remember(
      { ...input, method: 'manual' },
      { embedder: lentModel(context), lockWaitMilliseconds: MEMORY_LOCK_WAIT_MS },
    );
    return { created, vector, memory: await memoryView(memory, context.store), notes };
  });
}

/** PUT /api/memories/:id: an edit, as a new memory superseding this one. */
export function reviseRoute(
  context: MemoryRouteContext,
  id: string,
  revision: z.output<typeof request.reviseBody>,
): Promise<Answer<'revise'>> {
  return answering(async () => {
    const { previous, memory, vector, notes } = await context.folder.revise(id, revision, {
      embedder: lentModel(context),
      lockWaitMilliseconds: MEMORY_LOCK_WAIT_MS,
    });
    return {
      vector,
      previous: await memoryView(previous, context.store),
      memory: await memoryView(memory, context.store),
      notes,
    };
  });
}

/** DELETE /api/memories/:id: forgets (retracted, kept in the bundle). */
export function forgetRoute(context: MemoryRouteContext, id: string): Promise<Answer<'forget'>> {
  return answering(async () => {
    const { memory, notes } = await context.folder.forget(id, {
      lockWaitMilliseconds: MEMORY_LOCK_WAIT_MS,
    });
    return { memory: await memoryView(memory, context.store), notes };
  });
}
