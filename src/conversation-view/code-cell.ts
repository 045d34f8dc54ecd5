import type { Message } from '../model/pam.js';

/** A message whose text is code sent to a tool (a ChatGPT `code` content type), not prose. */
export interface CodeCell {
  /** The code's language when known (highlight.js and fence names: python, json). */
  language: string | null;
}

// ChatGPT marks the code interpreter's cells `language: "unknown"`; the tool it went to says more.
const TOOL_LANGUAGES: Record<string, string> = { python: 'python' };

/** The code cell a PAM message is, or null when its text is prose. */
export function codeCellOf(message: Pick<Message, 'content' | 'tool_calls'>): CodeCell | null {
  const part = message.content?.parts?.find((p) => p.type === 'code');
  if (!part) return null;
  const stated = part.language?.trim().toLowerCase();
  if (stated && stated !== 'unknown') return { language: stated };
  const tool = message.tool_calls[0]?.name.toLowerCase();
  return { language: (tool !== undefined && TOOL_LANGUAGES[tool]) || null };
}
