import type { JsonObject } from '../../model/pam.js';
import { asArray, asObject, asString, asText } from '../untrusted.js';

/**
 * Of the entries sharing a uuid, the most complete: one holding text beats one with an empty
 * message, which beats one with none (`"message": "error"`). Between equally complete copies
 * the first is kept (a later conflicting copy does not replace what the session showed).
 */
export function mostCompleteByUuid(
  entries: readonly (JsonObject | undefined)[],
): Map<string, JsonObject> {
  const best = new Map<string, { entry: JsonObject; score: number }>();
  for (const entry of entries) {
    const uuid = asText(entry?.uuid);
    if (!entry || uuid === undefined) continue;
    const score = completeness(entry);
    const before = best.get(uuid);
    if (!before || score > before.score) best.set(uuid, { entry, score });
  }
  return new Map([...best].map(([uuid, { entry }]) => [uuid, entry]));
}

/** 0: no message object; 1: a message with no content; 2: content with text or blocks. */
function completeness(entry: JsonObject): number {
  const message = asObject(entry.message);
  if (!message) return 0;
  const content = message.content;
  if (typeof content === 'string') return content === '' ? 1 : 2;
  const blocks = asArray(content) ?? [];
  const holds = blocks.some((block) =>
    typeof block === 'string'
      ? block !== ''
      : asObject(block) !== undefined && asString(asObject(block)?.type) !== undefined,
  );
  return holds ? 2 : 1;
}
