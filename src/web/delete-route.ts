import { ConversationNotFoundError, deleteConversation, type Neo4jTarget } from '../index.js';
import { ApiError } from './api-error.js';
import type { Answer } from './api-schema.js';

/** DELETE /api/conversations/:id: deletes the conversation everywhere (see deleteConversation). */
export async function deleteRoute(
  dataDir: string,
  neo4j: Neo4jTarget | undefined,
  id: string,
): Promise<Answer<'deleteConversation'>> {
  try {
    return await deleteConversation(dataDir, id, { neo4j });
  } catch (error) {
    if (error instanceof ConversationNotFoundError) throw new ApiError(404, error.message);
    throw error;
  }
}
