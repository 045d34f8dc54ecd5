import { ConversationNotFoundError, deleteConversation, type Neo4jTarget } from '../index.js';
import { ApiError } from './api-routes.js';

/** DELETE /api/conversations/:id: deletes the conversation everywhere (see deleteConversation). */
export async function deleteRoute(
  dataDir: string,
  neo4j: Neo4jTarget | undefined,
  id: string,
): Promise<unknown> {
  try {
    return await deleteConversation(dataDir, id, { neo4j });
  } catch (error) {
    if (error instanceof ConversationNotFoundError) throw new ApiError(404, error.message);
    throw error;
  }
}
