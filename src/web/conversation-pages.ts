import type { Store } from '../index.js';
import { ApiError, conversation } from './api-routes.js';

/** Messages per page unless the browser asks for another size, and the most it may ask for. */
export const MESSAGE_PAGE = 1000;
export const MAX_MESSAGE_PAGE = 5000;

/** How long a conversation read for its first page is kept for the pages after it. */
const KEEP_MILLISECONDS = 60_000;

interface Assembled {
  conversation: unknown;
  messages: unknown[];
}

/**
 * GET /api/conversations/:id?offset=&limit=: a conversation's messages a page at a time, so no
 * answer is the whole of a 200,000-message conversation. The conversation is read once for its
 * first page and kept a minute for the pages that follow (one conversation at a time).
 */
export class ConversationPages {
  private kept: { id: string; at: number; value: Assembled } | undefined;

  constructor(
    private readonly store: Store,
    private readonly dataDir: string,
  ) {}

  /** One page of the conversation's messages, with the count of all of them. */
  async page(id: string, params: URLSearchParams): Promise<unknown> {
    const offset = bounded(params, 'offset', 0, Number.MAX_SAFE_INTEGER);
    const limit = bounded(params, 'limit', MESSAGE_PAGE, MAX_MESSAGE_PAGE, 1);
    const kept = this.kept;
    const fresh = kept?.id === id && Date.now() - kept.at < KEEP_MILLISECONDS && offset > 0;
    const value = fresh
      ? kept.value
      : ((await conversation(this.store, this.dataDir, id)) as Assembled);
    this.kept = { id, at: Date.now(), value };
    const messages = value.messages.slice(offset, offset + limit);
    const next = offset + messages.length;
    return {
      conversation: value.conversation,
      messages,
      offset,
      total: value.messages.length,
      nextOffset: next < value.messages.length ? next : null,
    };
  }
}

function bounded(
  params: URLSearchParams,
  name: string,
  fallback: number,
  max: number,
  min = 0,
): number {
  const value = params.get(name);
  if (value === null || value === '') return fallback;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number < min || number > max)
    throw new ApiError(400, `${name} must be a whole number from ${min} to ${max}`);
  return number;
}
