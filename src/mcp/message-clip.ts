import type { ThreadMessage } from '../api/view.js';
import { clipText } from './result-budget.js';

/** A message with its content and attached text cut to `max` characters each. */
export function clipMessage(message: ThreadMessage, max: number): ThreadMessage {
  const long =
    message.content.length > max || message.attachments.some((a) => (a.text?.length ?? 0) > max);
  // The same object when nothing is cut, so a cut message is told by identity.
  if (!long) return message;
  return {
    ...message,
    content: clipText(message.content, max),
    attachments: message.attachments.map((a) => ({
      ...a,
      text: a.text === null ? null : clipText(a.text, max),
    })),
  };
}

/**
 * How many characters of a message one run_cypher answer can carry within `maxBytes`: the part
 * comes twice (the text's JSON row and the structured rows), escaped, so a third of the budget,
 * in whole thousands.
 */
export function partChars(maxBytes: number): number {
  return Math.max(1000, Math.floor(maxBytes / 3 / 1000) * 1000);
}

/** How an agent reads on past a cut message, in parts that fit the answer budget. */
export function readOnHint(messageId: string, maxBytes: number): string {
  const part = String(partChars(maxBytes));
  return `To read a cut message in parts: run_cypher with query "MATCH (m:Message {id: $id}) RETURN substring(m.content, 0, ${part}) AS part" and params {"id": "${messageId}"}, moving the start by ${part}.`;
}

/** The ids of messages `render` was given cut, compared with the originals. */
export function cutIds(
  shown: readonly ThreadMessage[],
  originals: readonly ThreadMessage[],
): string[] {
  return shown.filter((m, i) => m !== originals[i]).map((m) => m.id);
}
