import { z } from 'zod';
import { looseList, looseObject, looseRecord, looseText, looseNumber } from '../loose-schema.js';

/*
 * Continue's chat sessions (continuedev/continue, core/index.d.ts and core/util/history.ts):
 * `~/.continue/sessions/<sessionId>.json` (or under `CONTINUE_GLOBAL_DIR`), one JSON document
 * per session rewritten as it grows, and `sessions.json` beside them listing each session's
 * id, title, creation time and workspace. A session is `{sessionId, title, workspaceDirectory,
 * history}`; each history item holds one `message` (`user`, `assistant`, `thinking`, `tool`,
 * `system`), the `contextItems` the person attached, and for a reply its `reasoning`, its
 * `promptLogs` (the model asked) and its tool calls' states (`toolCallStates`; `toolCallState`
 * before Continue kept several per reply).
 */

/** A session file. */
export const ContinueSession = looseRecord({
  sessionId: looseText,
  title: looseText,
  workspaceDirectory: looseText,
  history: looseList,
  mode: looseText,
  chatModelTitle: looseText,
  usage: looseObject,
});
export type ContinueSession = z.infer<typeof ContinueSession>;

/** One item of a session's history. */
export const HistoryItem = looseRecord({
  message: looseObject,
  contextItems: looseList,
  promptLogs: looseList,
  toolCallStates: looseList,
  toolCallState: looseObject,
  reasoning: looseObject,
  conversationSummary: looseText,
});
export type HistoryItem = z.infer<typeof HistoryItem>;

/** A message of the chat: its role, content (a text or text and image parts), tool calls. */
export const ChatMessage = looseRecord({
  id: looseText,
  role: looseText,
  content: z.unknown(),
  toolCalls: looseList,
  toolCallId: looseText,
  usage: looseObject,
});
export type ChatMessage = z.infer<typeof ChatMessage>;

/** A tool call's state on the reply that made it: the call, its status and its output. */
export const ToolCallState = looseRecord({
  toolCallId: looseText,
  toolCall: looseObject,
  status: looseText,
  parsedArgs: z.unknown(),
  output: looseList,
});
export type ToolCallState = z.infer<typeof ToolCallState>;

/** A model call's usage, as Continue counts it (OpenAI's way: the prompt includes cached reads). */
export const ContinueUsage = looseRecord({
  promptTokens: looseNumber,
  completionTokens: looseNumber,
  promptTokensDetails: looseObject,
  completionTokensDetails: looseObject,
});
export type ContinueUsage = z.infer<typeof ContinueUsage>;

/** One entry of `sessions.json`. */
export const SessionMetadata = looseRecord({
  sessionId: looseText,
  title: looseText,
  dateCreated: z.union([z.string(), z.number()]).optional().catch(undefined),
  workspaceDirectory: looseText,
});
export type SessionMetadata = z.infer<typeof SessionMetadata>;
