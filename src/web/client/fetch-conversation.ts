import { get, type ConversationInfo, type MessageView } from './api.js';
import { conversationPage } from './answers.js';

/** A conversation with every message of every branch. */
export interface LoadedConversation {
  conversation: ConversationInfo;
  /** Where it lives on its platform, when the export tells. */
  url: string | null;
  messages: MessageView[];
}

/**
 * Reads a conversation a page at a time (the server answers at most a page of messages, so a
 * 200,000-message conversation is never one response) and joins the pages.
 */
export async function fetchConversation(id: string): Promise<LoadedConversation> {
  const path = `/api/conversations/${encodeURIComponent(id)}`;
  const first = await get(path, conversationPage);
  const messages = [...first.messages];
  let next = first.nextOffset;
  while (next !== null) {
    const page = await get(`${path}?offset=${String(next)}`, conversationPage);
    messages.push(...page.messages);
    next = page.nextOffset;
  }
  return { conversation: first.conversation, url: first.url, messages };
}
