import type { GraphNode } from '../graph/graph-batch.js';
import {
  conversationLanguage,
  messageLanguage,
  needsDetector,
  STEM_LANGUAGES,
  stemText,
  type StemLanguage,
} from '../search/stemming.js';

/**
 * A conversation's language and its messages' stems as both stores index them (issue 24): the
 * embedded store in its message_stems table, Neo4j in a `_stems` property with its own
 * full-text index. English stays with each store's English stemming (porter, Lucene's English
 * analyzer): most histories are mostly English, and a second index of it finds nothing more.
 */

/** The languages the stemmed indexes hold (English is each store's English stemming's). */
export const STEMS_LANGUAGES = STEM_LANGUAGES.filter((language) => language !== 'en');

/** How many first messages, with the title, tell a conversation's language. */
export const FIRST_MESSAGES = 8;

function textsOf(nodes: readonly GraphNode[]): { title: string; messages: string[] } {
  let title = '';
  const messages: string[] = [];
  for (const node of nodes) {
    if (node.label === 'Conversation' && typeof node.properties.name === 'string')
      title = node.properties.name;
    else if (node.label === 'Message' && typeof node.properties.content === 'string')
      messages.push(node.properties.content);
  }
  return { title, messages };
}

/** A conversation's language from its batch: its title and first messages. */
export function batchLanguage(nodes: readonly GraphNode[]): StemLanguage | undefined {
  const { title, messages } = textsOf(nodes);
  return conversationLanguage(title, messages.slice(0, FIRST_MESSAGES));
}

/** Whether writing the batch's stems asks eld (see needsDetector), which loads asynchronously. */
export function batchNeedsDetector(nodes: readonly GraphNode[]): boolean {
  const { title, messages } = textsOf(nodes);
  return needsDetector(title, messages.slice(0, FIRST_MESSAGES), messages);
}

/**
 * A message's text as the stemmed index holds it, in its own language (see messageLanguage),
 * or undefined when that is English or no language stemmed here.
 */
export function messageStems(
  content: unknown,
  conversation: StemLanguage | undefined,
): string | undefined {
  if (typeof content !== 'string' || content === '') return undefined;
  const own = messageLanguage(content, conversation);
  return own !== undefined && own !== 'en' ? stemText(content, own) : undefined;
}
