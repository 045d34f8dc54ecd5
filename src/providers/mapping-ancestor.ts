import type { JsonObject } from '../model/pam.js';
import { asObject, asString } from './untrusted.js';

/**
 * In a `mapping` tree (ChatGPT, DeepSeek): the nearest node, from `key` up through `parent`
 * links, that holds a message. Nodes without one (the root) are skipped; a cycle ends the walk.
 */
export function messageAncestor(mapping: JsonObject, key: string | undefined): string | null {
  const seen = new Set<string>();
  let at = key;
  while (at !== undefined && !seen.has(at)) {
    const node = asObject(mapping[at]);
    if (asObject(node?.message) !== undefined) return at;
    seen.add(at);
    at = asString(node?.parent);
  }
  return null;
}
