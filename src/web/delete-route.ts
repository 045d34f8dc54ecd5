import { ConversationNotFoundError } from '../api/query.js';
import type { DataFolder } from '../index.js';
import { ApiError } from './api-error.js';
import type { Answer } from './api-schema.js';

/** DELETE /api/conversations/:id: deletes the conversation everywhere (see DataFolder.delete). */
export async function deleteRoute(
  folder: DataFolder,
  id: string,
): Promise<Answer<'deleteConversation'>> {
  try {
    return await folder.delete(id);
  } catch (error) {
    if (error instanceof ConversationNotFoundError) throw new ApiError(404, error.message);
    throw error;
  }
}
