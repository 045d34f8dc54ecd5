import type { DraftMessage } from '../model/draft.js';
import type { JsonObject } from '../model/pam.js';
import { oneLineTitle } from '../model/title.js';

/**
 * A session with no title and no summary is named by its first prompt (cut at 100 characters,
 * marked with …), as Claude Code's own session list does.
 */
export function firstPromptTitle(drafts: readonly DraftMessage[], raw: JsonObject): string | null {
  const prompt = drafts.find(
    (d) => d.role === 'user' && d.raw_metadata.hidden !== true && (d.content?.text ?? '') !== '',
  )?.content?.text;
  if (prompt === undefined || prompt === null) return null;
  raw.title_from = 'first prompt';
  return oneLineTitle(prompt, 100);
}
