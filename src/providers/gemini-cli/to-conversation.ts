import type { Conversation } from '../../model/pam.js';
import {
  chatConversation,
  chatRecordsOfDocument,
  chatRecordsOfLines,
} from '../gemini-chat-conversation.js';
import { logLines } from '../log-lines.js';
import type { ConversionContext } from '../provider.js';
import { asObject, asString } from '../untrusted.js';

/** The files read beside a chat file: the project's root folder, named in its temp folder. */
export const PROJECT_ROOT_FILES = ['../.project_root', '../../.project_root'] as const;

/**
 * Converts one Gemini CLI chat file (`~/.gemini/tmp/<project>/chats/session-….jsonl`, or the
 * older `.json`; a sub-agent's under `chats/<parent session>/`) into a PAM conversation. The
 * project's folder is the `.project_root` file of its temp folder, when the input has it.
 */
export function toGeminiCliConversation(
  raw: unknown,
  variant: string,
  context: ConversionContext,
): Conversation | undefined {
  const value = asObject(raw) ?? {};
  const side = asObject(value.side) ?? {};
  const main = value.main;
  const records =
    variant === 'session-json'
      ? chatRecordsOfDocument(asObject(main) ?? {})
      : chatRecordsOfLines(logLines(main, context), context);
  const cwd = PROJECT_ROOT_FILES.map((name) => asString(side[name])?.trim()).find((v) => !!v);
  return chatConversation(records, {
    provider: 'gemini-cli',
    format: `gemini-cli/${variant}`,
    assistantTypes: ['gemini'],
    assistantName: 'Gemini CLI',
    cwd,
    context,
  });
}
