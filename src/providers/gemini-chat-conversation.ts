import type { Conversation, JsonObject } from '../model/pam.js';
import { toTimestamp } from '../model/time.js';
import { baseName } from '../read/entry.js';
import { AgentLog, logConversation } from './agent-log.js';
import { draftChatRecords, type ChatRecords } from './gemini-records.js';
import type { ConversionContext } from './provider.js';
import { asArray, asText } from './untrusted.js';

export { chatRecordsOfDocument, chatRecordsOfLines } from './gemini-records.js';

/** What makes chat records a conversation of one provider (Gemini CLI, Qwen Code's first files). */
export interface ChatConversationOptions {
  provider: string;
  format: string;
  assistantTypes: readonly string[];
  assistantName: string;
  cwd: string | undefined;
  context: ConversionContext;
}

/** Chat records as a PAM conversation, linked to the session that started it when a sub-agent's. */
export function chatConversation(
  records: ChatRecords,
  options: ChatConversationOptions,
): Conversation | undefined {
  const { context } = options;
  const log = new AgentLog(context);
  draftChatRecords(records, { log, context, assistantTypes: options.assistantTypes });
  const meta = records.metadata;
  const id = asText(meta.sessionId) ?? baseName(context.file).replace(/\.jsonl?$/i, '');
  const raw: JsonObject = {};
  const directories = (asArray(meta.directories) ?? []).filter(
    (d): d is string => typeof d === 'string',
  );
  const cwd = options.cwd ?? directories[0];
  if (cwd !== undefined) raw.cwd = cwd;
  raw.session_id = id;
  if (asText(meta.projectHash) !== undefined) raw.project_hash = asText(meta.projectHash);
  if (directories.length > 0) raw.directories = directories;
  // A sub-agent's chat sits in `chats/<parent session id>/`.
  const parent = /(?:^|\/)chats\/([^/]+)\/[^/]+$/.exec(context.file)?.[1];
  if (asText(meta.kind) !== undefined) raw.kind = asText(meta.kind);
  if (parent !== undefined) raw.parent_session_id = parent;
  if (records.rewound > 0) raw.rewound_messages = records.rewound;
  return logConversation(
    {
      provider: options.provider,
      id,
      format: options.format,
      title: asText(meta.summary),
      createdAt: toTimestamp(meta.startTime),
      updatedAt: toTimestamp(meta.lastUpdated),
      raw,
      assistantName: options.assistantName,
    },
    log,
    context,
  );
}
