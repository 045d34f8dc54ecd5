import type { JsonObject } from '../model/pam.js';
import { asObject, asString } from './untrusted.js';

/**
 * In a `mapping` tree (ChatGPT, DeepSeek): the nearest node, from `key` up through `parent`
 * links, that holds a message. Nodes without one (the root) are skipped; a cycle ends the walk.
 * Give the same `memo` to every call on one mapping: each node is then walked once, however
 * long a run of nodes without messages is (linear, not quadratic, on a hostile mapping).
 */
export function messageAncestor(
  mapping: JsonObject,
  key: string | undefined,
  memo?: Map<string, string | null>,
): string | null {
  const seen = new Set<string>();
  let at = key;
  let found: string | null = null;
  while (at !== undefined && !seen.has(at)) {
    const known = memo?.get(at);
    if (known !== undefined) {
      found = known;
      break;
    }
    const node = asObject(mapping[at]);
    if (asObject(node?.message) !== undefined) {
      found = at;
      break;
    }
    seen.add(at);
    at = asString(node?.parent);
  }
  if (memo) for (const visited of seen) memo.set(visited, found);
  return found;
}
