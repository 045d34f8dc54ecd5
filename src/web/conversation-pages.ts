import type { z } from 'zod';
import type { ConversationView } from '../api/view.js';
import { resolveConversation } from '../api/query.js';
import type { DataFolder } from '../index.js';
import { ApiError } from './api-error.js';
import type { conversationPageQuery } from './api-requests.js';
import type { Answer } from './api-schema.js';

/** How long a conversation read for its first page is kept for the pages after it. */
const KEEP_MILLISECONDS = 60_000;

/**
 * GET /api/conversations/:id?offset=&limit=: a conversation's messages a page at a time (the id
 * whole, the platform's, or the start of either), so no
 * answer is the whole of a 200,000-message conversation. The conversation is read once for its
 * first page (the library's conversation view) and kept a minute for the pages that follow (one
 * conversation at a time).
 */
export class ConversationPages {
  private kept: { id: string; at: number; value: ConversationView } | undefined;

  constructor(private readonly folder: DataFolder) {}

  /** One page of the conversation's messages, with the count of all of them. */
  async page(
    id: string,
    { offset, limit }: z.output<typeof conversationPageQuery>,
  ): Promise<Answer<'conversation'>> {
    const kept = this.kept;
    const fresh = kept?.id === id && Date.now() - kept.at < KEEP_MILLISECONDS && offset > 0;
    // The id may be typed short (`#/c/3f2a9c1b`): the one conversation it starts, or an error.
    const value = fresh
      ? kept.value
      : await this.folder.view((await resolveConversation(await this.folder.reader(), id)).id);
    if (!value) throw new ApiError(404, `no conversation with id ${id}`);
    this.kept = { id, at: Date.now(), value };
    const messages = value.messages.slice(offset, offset + limit);
    const next = offset + messages.length;
    return {
      conversation: value.conversation,
      url: value.url,
      messages,
      offset,
      total: value.messages.length,
      nextOffset: next < value.messages.length ? next : null,
    };
  }
}
