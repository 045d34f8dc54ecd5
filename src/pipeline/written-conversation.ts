import type { Conversation } from '../model/pam.js';

/**
 * A conversation file's text that this process wrote itself (`conversationText` of a
 * Conversation it built, in a worker or by a merge), parsed back. It is not data from outside,
 * so it is not re-checked field by field with the zod schema of a bundle file
 * (conversation-schema.ts): that measured half as much again as JSON.parse, a tenth of a
 * merge's time (1,470 conversations, 88 MB: JSON.parse 240 ms, with the schema 380 ms, the merge
 * path 1,100 ms). What is checked is what says it is a conversation and what a merge and a
 * projection walk by: the PAM marks, the times, and each message's id, parent and children. A
 * text that fails is a bug, named as one.
 */
export function parseWrittenConversation(text: string, id: string): Conversation {
  const value: unknown = JSON.parse(text);
  if (isWrittenConversation(value)) return value;
  throw new Error(
    `chatgraph cannot read back the conversation ${id} it wrote (${whatIsWrong(value) ?? 'unknown'} does not fit): this is a bug`,
  );
}

type Fields = Partial<Record<string, unknown>>;

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const isNullableText = (value: unknown): boolean => value === null || typeof value === 'string';

// The first field that does not fit, or undefined when all that is checked fits.
function whatIsWrong(value: unknown): string | undefined {
  if (!isObject(value)) return 'the text';
  if (value.schema !== 'portable-ai-memory-conversation') return 'schema';
  if (typeof value.id !== 'string') return 'id';
  const temporal = value.temporal;
  if (!isObject(temporal) || typeof temporal.created_at !== 'string') return 'temporal.created_at';
  if (!isNullableText(temporal.updated_at)) return 'temporal.updated_at';
  if (!Array.isArray(value.messages)) return 'messages';
  const messages: unknown[] = value.messages;
  for (const [i, message] of messages.entries()) {
    const at = `messages.${String(i)}`;
    if (!isObject(message)) return at;
    if (typeof message.id !== 'string') return `${at}.id`;
    if (!isNullableText(message.parent_id)) return `${at}.parent_id`;
    if (!Array.isArray(message.children_ids)) return `${at}.children_ids`;
  }
  return undefined;
}

// Nothing checked is wrong: the conversation this process wrote, as the type it was written from.
function isWrittenConversation(value: unknown): value is Conversation {
  return whatIsWrong(value) === undefined;
}
