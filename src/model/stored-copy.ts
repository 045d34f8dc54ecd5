import type { Conversation } from './pam.js';
import { Redactor } from './redact.js';

/**
 * The bundle's copy of a conversation as a merge takes it: with a redactor (`--redact`), its
 * secrets masked (those it holds, and those the redactor learnt from the arriving copy), so a
 * secret an earlier plain import wrote is never merged back into a masked copy.
 */
export function storedCopyForMerge(
  stored: Conversation,
  redactor: Redactor | undefined,
): Conversation {
  if (!redactor) return stored;
  redactor.learn(stored);
  return redactor.mask(stored, {});
}

/** A redactor for `storedCopyForMerge` when secrets are masked, else none. */
export function mergeRedactor(redact: boolean): Redactor | undefined {
  return redact ? new Redactor() : undefined;
}
