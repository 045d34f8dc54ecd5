import type { Conversation } from '../model/pam.js';
import { conversationSchema as ConversationFile } from '../model/pam-conversation.js';

// The PAM conversation (declared once, `src/model/pam-conversation.ts`) checked when a bundle
// file is read back: the bundle is outside the process (edited, damaged, written by another tool).

/**
 * Whether a parsed file is a PAM conversation. The checked value itself is kept (nothing is
 * rebuilt: a third of the cost of taking zod's copy, measured over 100,000 messages), so fields
 * a newer writer added survive a round trip.
 */
function isConversationFile(value: unknown): value is Conversation {
  return ConversationFile.safeParse(value).success;
}

/**
 * Reads a conversation file's text: the conversation, or what is wrong with it in one line
 * (not JSON, or the first fields that do not fit PAM).
 */
export function parseConversationFile(
  text: string,
): { ok: true; conversation: Conversation } | { ok: false; reason: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return {
      ok: false,
      reason: `not JSON (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  if (isConversationFile(value)) return { ok: true, conversation: value };
  const { error } = ConversationFile.safeParse(value);
  return {
    ok: false,
    reason: `not a PAM conversation: ${(error?.issues ?? [])
      .slice(0, 3)
      .map((issue) => `${issue.path.join('.') || '(the file)'}: ${issue.message}`)
      .join('; ')}`,
  };
}
