import type { EmbeddingText } from '../stores/vector-index.js';

/**
 * The first pass records a conversation's one vector with its content hash behind this prefix:
 * it differs from the conversation's hash, so the conversation stays pending for every chunk.
 */
export const GIST_HASH_PREFIX = 'gist:';

/** The gist's length at most: a few hundred tokens, so the first pass stays quick. */
const GIST_CHARS = 700;
/** The first questions say what a conversation is about; later ones drift. */
const QUESTIONS = 3;
const QUESTION_CHARS = 200;
/** An answer this long opens with its own summary of the subject: its start is kept. */
const LONG_ANSWER = 400;
const ANSWER_CHARS = 160;

/** A conversation's gist: its one text for the first pass, and the title it stands for. */
export interface Gist {
  text: string;
  /** What a hit on it opens and shows (the title's place, else the first message's). */
  messageId: string | null;
  source: string;
  createdAt: string | null;
  /** The title's length: a hit's snippet is the title. */
  titleLength: number;
}

/** The start of a text, cut after a word where it can. */
function opening(text: string, max: number): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.lastIndexOf(' ', max);
  return flat.slice(0, cut > max / 2 ? cut : max);
}

/**
 * One text that stands for a whole conversation: its title, its first questions, and the start
 * of each long answer, up to a few hundred characters; undefined when it has no text at all.
 */
export function gistOf(texts: readonly EmbeddingText[]): Gist | undefined {
  const title = texts.find((t) => t.kind === 'title');
  const messages = texts.filter((t) => t.kind === 'message');
  const first = title ?? messages[0] ?? texts[0];
  if (!first) return undefined;
  const parts: string[] = title ? [title.text.trim()] : [];
  let length = parts[0]?.length ?? 0;
  const add = (text: string, max: number): void => {
    const room = GIST_CHARS - length;
    if (room <= 0) return;
    const part = opening(text, Math.min(max, room));
    if (part === '') return;
    parts.push(part);
    length += part.length + 1;
  };
  for (const q of messages.filter((m) => m.role === 'user').slice(0, QUESTIONS))
    add(q.text, QUESTION_CHARS);
  for (const a of messages)
    if (a.role !== 'user' && a.text.length >= LONG_ANSWER) add(a.text, ANSWER_CHARS);
  // A conversation of attachments alone (or of system text): its first text.
  if (parts.length === 0) add(first.text, GIST_CHARS);
  return {
    text: parts.join('\n'),
    messageId: first.messageId,
    source: first.source,
    createdAt: first.createdAt,
    titleLength: title?.text.length ?? 0,
  };
}
