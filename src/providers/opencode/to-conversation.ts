import { buildConversation } from '../../model/build-conversation.js';
import type { DraftMessage } from '../../model/draft.js';
import type { Attachment, Conversation, JsonObject, ToolCall } from '../../model/pam.js';
import { thoughtDrafts, type Thought } from '../../model/thought-drafts.js';
import { toTimestamp } from '../../model/time.js';
import { tokenUsageJson } from '../../model/token-usage.js';
import { conversationIdOf } from '../../model/build-conversation.js';
import type { ConversionContext } from '../provider.js';
import { asArray, asNumber, asObject, asString, asText, without } from '../untrusted.js';

/** One OpenCode message with its parts, whichever generation of the store it came from. */
export interface OpenCodeMessage {
  id: string;
  info: JsonObject;
  parts: { id: string; data: JsonObject }[];
}

/** An OpenCode session as both its SQLite and its JSON storage give it. */
export interface OpenCodeSession {
  id: string;
  title: string | undefined;
  directory: string | undefined;
  parentId: string | undefined;
  created: unknown;
  updated: unknown;
  version: string | undefined;
  project: JsonObject | undefined;
  /** The session's other fields, kept in the conversation's `raw_metadata`. */
  rest: JsonObject;
  messages: OpenCodeMessage[];
}

// Part types that only mark the agent's loop: counted, not kept as text.
const STEP_PARTS = new Set(['step-start', 'step-finish', 'snapshot']);

/**
 * Converts an OpenCode session: user prompts with their files, each assistant message's
 * reasoning (as thoughts), text, tool calls with their results (one part holds both), model,
 * token usage and working folder; text the agent added itself (`synthetic` parts) is kept on
 * the message as context, marked, not as the person's words; a `task` call links the
 * sub-agent session it started.
 */
export function toOpenCodeConversation(
  session: OpenCodeSession,
  variant: string,
  context: ConversionContext,
): Conversation | undefined {
  const drafts: DraftMessage[] = [];
  let previous: string | null = null;
  let cwd = session.directory;
  let model: string | null = null;
  const counts: Record<string, number> = {};
  for (const message of session.messages) {
    const role = asString(message.info.role);
    if (role !== 'user' && role !== 'assistant') {
      context.report({
        level: 'warning',
        code: 'unknown-record',
        message: `message ${message.id} has the role ${JSON.stringify(message.info.role ?? null)}, which chatgraph does not know; kept as a user message`,
        record: message.id,
      });
    }
    for (const part of message.parts) {
      const type = asString(part.data.type) ?? 'unknown';
      counts[type] = (counts[type] ?? 0) + 1;
    }
    const built = messageDrafts(message, role === 'assistant', previous);
    for (const draft of built) drafts.push(draft);
    previous = built.at(-1)?.key ?? previous;
    const path = asObject(message.info.path);
    cwd ??= asText(path?.cwd);
    const messageModel = built.at(-1)?.model;
    if (messageModel) model = messageModel;
  }
  if (drafts.length === 0) {
    context.report({
      level: 'warning',
      code: 'empty-session',
      message: `session ${session.id} holds no messages; skipped`,
      record: session.id,
    });
    return undefined;
  }
  const raw: JsonObject = { ...session.rest, part_counts: counts };
  if (cwd) raw.cwd = cwd;
  const worktree = asText(session.project?.worktree);
  if (worktree && worktree !== '/') raw.project_worktree = worktree;
  if (session.project) raw.project = session.project;
  if (session.version) raw.cli_version = session.version;
  if (session.parentId) {
    raw.parent_session_id = session.parentId;
    raw.parent_conversation_id = conversationIdOf('opencode', session.parentId);
  }
  return buildConversation(
    {
      provider: {
        name: 'opencode',
        conversation_id: session.id,
        account_id: null,
        export_format_version: `opencode/${variant}${session.version ? `/${session.version}` : ''}`,
      },
      title: session.title ?? null,
      createdAt: toTimestamp(session.created),
      updatedAt: toTimestamp(session.updated),
      messages: drafts,
      shownLeafKey: undefined,
      model,
      system_instruction: null,
      is_archived: false,
      raw_metadata: raw,
      assistantName: 'OpenCode',
    },
    context,
  );
}

function messageDrafts(
  message: OpenCodeMessage,
  assistant: boolean,
  parentKey: string | null,
): DraftMessage[] {
  const { info } = message;
  const createdAt = toTimestamp(asObject(info.time)?.created);
  const raw: JsonObject = without(info, ['role', 'time', 'tokens', 'modelID', 'id', 'sessionID']);
  const read = readParts(message, createdAt, raw);
  const model = assistant
    ? (asText(info.modelID) ?? asText(asObject(info.model)?.modelID) ?? null)
    : null;
  const usage = assistant ? usageOf(asObject(info.tokens)) : undefined;
  if (usage) raw.token_usage = usage;
  if (read.errors.length > 0) raw.tool_errors = read.errors;
  if (read.subagents.length > 0) raw.subagents = read.subagents;
  const error = asObject(info.error);
  if (error)
    read.texts.push(`[error] ${asText(asObject(error.data)?.message) ?? asText(error.name) ?? ''}`);
  const thinking = thoughtDrafts(message.id, parentKey, read.thoughts, model);
  // The person's words first, then what OpenCode put beside them (marked from where it
  // starts), so both are searchable and the context is never taken for the person's words.
  const words = read.texts.join('\n\n');
  const text = [words, ...read.injected].filter((t) => t !== '').join('\n\n');
  if (read.injected.length > 0) {
    raw.has_injected_context = true;
    raw.injected_context_at = words === '' ? 0 : words.length + 2;
    if (!assistant && words === '') raw.hidden = true;
  }
  const draft: DraftMessage = {
    key: message.id,
    parentKey: thinking.replyParent,
    provider_message_id: message.id,
    role: assistant ? 'assistant' : 'user',
    content: { type: 'text', text },
    createdAt,
    model,
    is_thought: false,
    attachments: read.attachments,
    citations: [],
    tool_calls: read.calls,
    raw_metadata: raw,
  };
  return [...thinking.drafts, draft];
}

interface ReadParts {
  texts: string[];
  injected: string[];
  thoughts: Thought[];
  calls: ToolCall[];
  attachments: Attachment[];
  errors: string[];
  subagents: JsonObject[];
}

function readParts(
  message: OpenCodeMessage,
  createdAt: string | undefined,
  raw: JsonObject,
): ReadParts {
  const out: ReadParts = {
    texts: [],
    injected: [],
    thoughts: [],
    calls: [],
    attachments: [],
    errors: [],
    subagents: [],
  };
  for (const { id, data } of message.parts) {
    const type = asString(data.type);
    if (type === 'text') {
      const text = asString(data.text) ?? '';
      // Text OpenCode wrote itself (a read file's content, a reminder) is context, not words.
      if (data.synthetic === true) out.injected.push(text);
      else if (text !== '') out.texts.push(text);
    } else if (type === 'reasoning') {
      const text = asString(data.text) ?? '';
      if (text !== '')
        out.thoughts.push({
          text,
          createdAt: toTimestamp(asObject(data.time)?.start) ?? createdAt,
          raw: { part_id: id },
        });
    } else if (type === 'tool') {
      const call = toolCall(id, data);
      out.calls.push(call);
      const state = asObject(data.state);
      if (asString(state?.status) === 'error' && call.id !== null) out.errors.push(call.id);
      const child = asText(asObject(state?.metadata)?.sessionId);
      if (child !== undefined && call.id !== null)
        out.subagents.push({ tool_use_id: call.id, conversation_id: child });
    } else if (type === 'file') {
      out.attachments.push(fileAttachment(data));
    } else if (type === 'subtask') {
      out.texts.push(asString(data.prompt) ?? '');
      raw.subtask = without(data, ['type', 'prompt']);
    } else if (type === 'agent') {
      raw.agent_mention = asString(data.name) ?? null;
    } else if (type === 'patch') {
      raw.patched_files = asArray(data.files) ?? [];
    } else if (type === undefined || !STEP_PARTS.has(type)) {
      appendRaw(raw, 'other_parts', data);
    }
  }
  return out;
}

function toolCall(partId: string, data: JsonObject): ToolCall {
  const state = asObject(data.state) ?? {};
  const input = asObject(state.input) ?? null;
  const status = asString(state.status);
  const output =
    status === 'completed'
      ? (asString(state.output) ?? '')
      : status === 'error'
        ? (asString(state.error) ?? '')
        : null;
  return {
    id: asText(data.callID) ?? partId,
    name: asText(data.tool) ?? 'unknown',
    input,
    output,
  };
}

function fileAttachment(data: JsonObject): Attachment {
  const mime = asText(data.mime) ?? null;
  const url = asText(data.url);
  return {
    type: mime?.startsWith('image/') === true ? 'image' : 'file',
    name: asText(data.filename) ?? asText(asObject(data.source)?.path) ?? null,
    mime_type: mime,
    size_bytes: null,
    ref: null,
    // A data: URL is the file itself, not a place: its bytes stay out of the bundle's ids.
    provider_id: url !== undefined && !url.startsWith('data:') ? url : null,
  };
}

// OpenCode's `tokens.input` leaves the cached tokens out already (session.ts getUsage).
function usageOf(tokens: JsonObject | undefined): JsonObject | undefined {
  if (!tokens) return undefined;
  const cache = asObject(tokens.cache);
  return tokenUsageJson({
    ...opt('input_tokens', asNumber(tokens.input)),
    ...opt('output_tokens', asNumber(tokens.output)),
    ...opt('reasoning_tokens', asNumber(tokens.reasoning)),
    ...opt('cache_read_tokens', asNumber(cache?.read)),
    ...opt('cache_creation_tokens', asNumber(cache?.write)),
  });
}

function opt<K extends string>(key: K, value: number | undefined): Partial<Record<K, number>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, number>);
}

function appendRaw(raw: JsonObject, field: string, value: unknown): void {
  const list = Array.isArray(raw[field]) ? (raw[field] as unknown[]) : [];
  list.push(value);
  raw[field] = list;
}
