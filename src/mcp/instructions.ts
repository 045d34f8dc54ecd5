import { PROVIDERS } from '../api/sources.js';
import type { StoreReader } from '../index.js';

/** What the store holds, as the initialize result tells an agent. */
export interface Holdings {
  conversations: number;
  /** The graph's sources (chatgpt, claude-ai…). */
  sources: string[];
  /** Whether the history has vectors (search by meaning) or words only. */
  embedded: boolean;
}

/** What the store holds, from its cheap counts: read once when a server starts. */
export async function holdingsOf(store: StoreReader): Promise<Holdings> {
  const [conversations, sources, model] = await Promise.all([
    store.conversationCount(),
    store.sources(),
    store.vectorModel(),
  ]);
  return { conversations, sources, embedded: model !== undefined };
}

function product(source: string): string {
  return PROVIDERS.find((p) => p.source === source)?.product ?? source;
}

function held(holdings: Holdings | undefined): string {
  if (!holdings) return "This server holds the user's past AI chat history.";
  const { conversations, sources, embedded } = holdings;
  const count = `${conversations.toLocaleString('en')} conversation${conversations === 1 ? '' : 's'}`;
  const from = sources.length > 0 ? ` from ${sources.map(product).join(', ')}` : '';
  const search = embedded
    ? 'searchable by meaning and by words'
    : 'searchable by words (not embedded: no search by meaning)';
  return `This server holds the user's past AI chat history: ${count}${from}, ${search}.`;
}

/**
 * The initialize result's `instructions` (issue 26 §8): what the server holds, when it helps,
 * which tool to use when, the ids the tools take and the answer budget. Under 1,200 characters.
 */
export function instructionsFor(options: {
  holdings?: Holdings | undefined;
  memory: boolean;
  budgetKb: number;
}): string {
  const lines = [
    held(options.holdings),
    'Use it when the user refers to an earlier conversation, asks what they said, decided or learnt, or when their past context would help.',
    '- search_conversations first (a question or keywords): one entry per conversation, with its best passages.',
    '- get_conversation with a conversation id reads it a page at a time (offset); get_message_context with a message id gives the messages around one.',
    '- list_conversations browses by source, date or title; stats counts; run_cypher answers counts and questions search cannot (schema: chatgraph://schema).',
  ];
  if (options.memory)
    lines.push(
      "- list_memories and recent_activity read the user's memories; remember stores a lasting fact about the user, forget retracts one.",
    );
  lines.push(
    "Ids: use the ids the tools give (chatgraph's); a conversation or message id from the platform (as in a ChatGPT or Claude link) works too.",
    `An answer holds ${String(options.budgetKb)} KB at most: a cut one says "Truncated" and how to get the rest (the next offset, or a narrower call).`,
  );
  return lines.join('\n');
}
