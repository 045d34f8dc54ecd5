import { messagePart, shortIds, shortMessageIds } from './short-ids.js';
import { QueryError, type ConversationInfo, type MessageRef, type Store } from './store.js';

/** The fewest characters of an id that are taken as its start. */
export const MIN_ID_PREFIX = 8;

/** How many candidates an ambiguous id's error names. */
const NAMED = 5;

/** No conversation (or message) has this id, or an id starting with it: one line for the user. */
export class UnknownIdError extends QueryError {}

/** Several conversations (or messages) have an id starting with what was given. */
export class AmbiguousIdError extends QueryError {
  constructor(
    message: string,
    /** The first few of them: a short id and a title each. */
    readonly candidates: { id: string; title: string }[],
  ) {
    super(message);
  }
}

type IdStore = Pick<Store, 'conversation' | 'conversationsByPrefix' | 'messagesByPrefix'>;

const tooShort = (what: string, id: string): string =>
  id.length < MIN_ID_PREFIX
    ? `there is no ${what} with id ${id} (the start of an id needs ${MIN_ID_PREFIX} characters at least)`
    : `there is no ${what} with id ${id} (nor one starting with it)`;

function ambiguous(
  what: string,
  id: string,
  candidates: { id: string; title: string }[],
  more: boolean,
): AmbiguousIdError {
  const named = candidates
    .slice(0, NAMED)
    .map((c) => `${c.id} "${c.title}"`)
    .join(', ');
  return new AmbiguousIdError(
    `"${id}" starts the ids of ${more ? `more than ${NAMED}` : String(candidates.length)} ${what}s: ${named}${more ? ', …' : ''}; give more characters`,
    candidates.slice(0, NAMED),
  );
}

/**
 * The conversation an id a person typed names: chatgraph's id or the platform's, whole, or the
 * start (8 characters at least) of either. Unknown or too short is an {@link UnknownIdError};
 * the start of several ids an {@link AmbiguousIdError} naming a few (short id and title).
 */
export async function resolveConversation(store: IdStore, text: string): Promise<ConversationInfo> {
  const id = text.trim();
  const exact = id === '' ? undefined : await store.conversation(id);
  if (exact) return exact;
  if (id.length < MIN_ID_PREFIX) throw new UnknownIdError(tooShort('conversation', id));
  const found = await store.conversationsByPrefix(id, NAMED + 1);
  const [only] = found;
  if (only && found.length === 1) return only;
  if (!only) throw new UnknownIdError(tooShort('conversation', id));
  const short = shortIds(found.map((c) => c.id));
  throw ambiguous(
    'conversation',
    id,
    found.map((c) => ({ id: short.get(c.id) ?? c.id, title: c.title ?? c.name })),
    found.length > NAMED,
  );
}

/**
 * The message an id a person typed names: its whole id (`{conversation}:{message}`) or the
 * start (8 characters at least) of it or of its message part; errors as
 * {@link resolveConversation}'s.
 */
export async function resolveMessage(store: IdStore, text: string): Promise<MessageRef> {
  const id = text.trim();
  if (id.length < MIN_ID_PREFIX) throw new UnknownIdError(tooShort('message', id));
  const found = await store.messagesByPrefix(id, NAMED + 1);
  const exact = found.find((m) => m.id === id || messagePart(m.id) === id);
  if (exact && found.filter((m) => m.id === id || messagePart(m.id) === id).length === 1)
    return exact;
  const [only] = found;
  if (only && found.length === 1) return only;
  if (!only) throw new UnknownIdError(tooShort('message', id));
  const short = shortMessageIds(found.map((m) => m.id));
  const titles = await Promise.all(
    found.slice(0, NAMED).map(async (m) => {
      const info = await store.conversation(m.conversationId);
      return info?.title ?? info?.name ?? m.conversationId;
    }),
  );
  throw ambiguous(
    'message',
    id,
    found.slice(0, NAMED).map((m, i) => ({ id: short.get(m.id) ?? m.id, title: titles[i] ?? '' })),
    found.length > NAMED,
  );
}

/** What `thread` opens: a conversation, and the message to open it at when a message id was given. */
export interface ThreadTarget {
  conversation: ConversationInfo;
  messageId?: string;
}

/**
 * A conversation id or a message id, as {@link resolveConversation} and {@link resolveMessage}
 * take them: a conversation when one matches, else a message.
 */
export async function resolveThreadTarget(store: IdStore, text: string): Promise<ThreadTarget> {
  try {
    return { conversation: await resolveConversation(store, text) };
  } catch (error) {
    if (!(error instanceof UnknownIdError)) throw error;
    const message = await resolveMessage(store, text).catch((inner: unknown) => {
      if (inner instanceof UnknownIdError)
        throw new UnknownIdError(error.message.replace('conversation', 'conversation or message'));
      throw inner;
    });
    const conversation = await resolveConversation(store, message.conversationId);
    return { conversation, messageId: message.id };
  }
}
