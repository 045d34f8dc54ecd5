import {
  UnknownIdError,
  resolveConversation,
  resolveMessage,
  type ConversationInfo,
  type QueryLimits,
  type Recaller,
} from '../api/query.js';
import type { DataFolder, StoreReader } from '../index.js';
import type { ResultBudget } from './result-budget.js';

/** What every tool reads from: the store, search, the Cypher limits and the result budget. */
export interface ToolContext {
  store: StoreReader;
  recaller: Recaller;
  limits: QueryLimits;
  budget: ResultBudget;
  /** The data folder: its bundle gives messages' sources, and its verbs write memories. */
  folder: DataFolder;
}

/**
 * The conversation an id a tool was given names: chatgraph's or the platform's, whole or its
 * start (8 characters at least); the error, a tool error's text, names the candidates of a
 * start several ids share. Every tool taking a conversation id resolves it here.
 */
export function conversationById(
  { store }: Pick<ToolContext, 'store'>,
  id: string,
): Promise<ConversationInfo> {
  return resolveConversation(store, id);
}

/**
 * chatgraph's whole message id for the start of one (8 characters at least, of it or of its
 * part after the conversation's id), or undefined when none starts so; a start several
 * messages share is an error naming them.
 */
export async function messageIdByStart(
  { store }: Pick<ToolContext, 'store'>,
  id: string,
): Promise<string | undefined> {
  try {
    return (await resolveMessage(store, id)).id;
  } catch (error) {
    if (error instanceof UnknownIdError) return undefined;
    throw error;
  }
}
