import type { JsonObject } from '../../model/pam.js';
import { asArray, asObject, asString, asText } from '../untrusted.js';

/** Of the entries sharing a uuid, the most complete (the first on a tie). */
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

/** How much an entry holds: nothing without a message object, else its text and blocks. */
function completeness(entry: JsonObject): number {
  const message = asObject(entry.message);
  if (!message) return 0;
  const content = message.content;
  if (typeof content === 'string') return 1 + content.length;
  let score = 1;
  for (const block of asArray(content) ?? []) {
    if (typeof block === 'string') score += block.length;
    else score += 1 + (asString(asObject(block)?.text)?.length ?? 0);
  }
  return score;
}
