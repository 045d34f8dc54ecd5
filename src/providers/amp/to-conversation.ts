import type { Attachment, Conversation, JsonObject } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import type { TokenUsage } from '../../model/token-usage.js';
import { AgentLog, logConversation } from '../agent-log.js';
import { callInput } from '../call-input.js';
import { notAConversation } from '../not-a-conversation.js';
import type { ConversionContext } from '../provider.js';
import { contextKindOf } from '../session-context.js';
import { asArray, asNumber, asObject, asString, asText } from '../untrusted.js';
import { uriPath } from '../vscode-copilot-chat/uris.js';
import { AmpMessage, AmpRelationship, AmpRun, AmpThread, AmpUsage } from './raw.js';

// A tool run that did not finish well: its result is kept and the call marked as failed.
const FAILED = new Set(['error', 'cancelled', 'rejected-by-user']);

/** A message's id (its index in the thread) and time. */
interface Turn {
  id: string | undefined;
  time: string | undefined;
}

/** Where a message is read, and what the thread has told so far. */
interface At {
  log: AgentLog;
  record: string;
  context: ConversionContext;
  /** The model of the last reply: Amp names it in each reply's usage only. */
  model: string | null;
  counts: Record<string, number>;
}

/**
 * Converts one Amp thread (`T-<uuid>.json`) into a PAM conversation: the person's messages
 * (text, images), the replies with their thinking, tool calls and each call's run (`tool_result`
 * blocks answer their call by `toolUseID`, in the next user message), the usage of each reply,
 * Amp's summaries (`info` messages) as the thread's context, the project from the thread's
 * first workspace tree and the threads it was handed off to or from.
 */
export function toAmpConversation(
  raw: unknown,
  variant: string,
  context: ConversionContext,
): Conversation | undefined {
  if (!asObject(raw)) {
    notAConversation(context, 'the thread is not a JSON object');
    return undefined;
  }
  const thread = AmpThread.parse(raw);
  const log = new AgentLog(context);
  const at: At = { log, record: context.record, context, model: null, counts: {} };
  (thread.messages ?? []).forEach((value, i) => {
    at.record = `messages[${i}]`;
    readMessage(AmpMessage.parse(asObject(value) ?? {}), at);
  });
  const id = thread.id ?? (context.file.split('/').at(-1) ?? '').replace(/\.json$/i, '');
  return logConversation(
    {
      provider: 'amp',
      id,
      format: `amp/${variant}`,
      title: thread.title,
      createdAt: toTimestamp(thread.created),
      model: at.model,
      raw: threadRaw(thread, at),
      assistantName: 'Amp',
    },
    log,
    context,
  );
}

function readMessage(message: AmpMessage, at: At): void {
  const role = message.role ?? '(no role)';
  at.counts[role] = (at.counts[role] ?? 0) + 1;
  const time = toTimestamp(message.meta?.sentAt) ?? toTimestamp(message.usage?.timestamp);
  const id = message.messageId !== undefined ? String(message.messageId) : undefined;
  const blocks = asArray(message.content) ?? [message.content];
  if (role === 'user') user(blocks, { id, time }, at);
  else if (role === 'assistant') assistant(message, blocks, { id, time }, at);
  else if (role === 'info') info(blocks, { id, time }, at);
  else
    at.context.report({
      level: 'info',
      code: 'unknown-entry-type',
      message: `${at.record} is a message of role "${role}", which is not mapped; skipped`,
      record: at.record,
    });
}

// The person's turn: their words and images; the tool results it carries fill their calls.
function user(blocks: unknown[], turn: Turn, at: At): void {
  const texts: string[] = [];
  const images: Attachment[] = [];
  const other: unknown[] = [];
  for (const item of blocks) {
    const block = asObject(item);
    const type = asString(block?.type);
    if (typeof item === 'string') texts.push(item);
    else if (type === 'text') texts.push(asString(block?.text) ?? '');
    else if (type === 'image' && block) images.push(imageOf(block));
    else if (type === 'tool_result' && block) result(block, at);
    else if (item !== undefined && item !== null) other.push(item);
  }
  const text = texts.join('\n\n');
  if (text === '' && images.length === 0 && other.length === 0) return;
  const raw: JsonObject = {};
  if (other.length > 0) raw.other_content = other;
  const message = {
    role: 'user' as const,
    text,
    time: turn.time,
    id: turn.id,
    raw,
    attachments: images,
  };
  const kind = contextKindOf(text);
  if (kind !== undefined) at.log.contextTurn(kind, message);
  else at.log.add(message);
}

function assistant(message: AmpMessage, blocks: unknown[], turn: Turn, at: At): void {
  const { log } = at;
  const usage = message.usage ? AmpUsage.parse(message.usage) : undefined;
  const model = usage?.model ?? at.model;
  at.model = model;
  const texts: string[] = [];
  const calls: JsonObject[] = [];
  const other: unknown[] = [];
  for (const item of blocks) {
    const block = asObject(item);
    const type = asString(block?.type);
    if (typeof item === 'string') texts.push(item);
    else if (type === 'text') texts.push(asString(block?.text) ?? '');
    else if (type === 'thinking') {
      const thinking = asString(block?.thinking) ?? '';
      if (thinking !== '') log.thought(thinking, turn.time, model);
    } else if (type === 'redacted_thinking')
      at.counts.redacted_thinking = (at.counts.redacted_thinking ?? 0) + 1;
    else if (type === 'tool_use' && block) calls.push(block);
    else if (item !== undefined && item !== null) other.push(item);
  }
  for (const item of other)
    at.context.report({
      level: 'info',
      code: 'unknown-block-type',
      message: `${at.record} holds a content block of type "${asString(asObject(item)?.type) ?? 'none'}", which is not mapped; it is kept in raw_metadata.other_content`,
      record: at.record,
    });
  const raw: JsonObject = {};
  const state = message.state;
  if (asString(state?.type) !== undefined && state?.type !== 'complete')
    raw.state = state?.type ?? null;
  if (asString(state?.stopReason) !== undefined) raw.stop_reason = state?.stopReason ?? null;
  if (other.length > 0) raw.other_content = other;
  const text = texts.join('\n\n');
  if (text === '' && calls.length > 0) raw.tool_calls_only = true;
  const reply = log.add({ role: 'assistant', text, time: turn.time, model, id: turn.id, raw });
  for (const call of calls)
    log.call(
      {
        id: asText(call.id) ?? null,
        name: asText(call.name) ?? 'tool',
        input: callInput(call.input),
        output: null,
      },
      turn.time,
      model,
    );
  if (usage) log.usage(ampUsage(usage), reply);
}

/**
 * Amp's usage is the Messages API's: `inputTokens` leaves out the cache's reads and writes,
 * counted apart (`totalInputTokens` is their sum, used only when `inputTokens` is missing).
 */
export function ampUsage(usage: AmpUsage): TokenUsage {
  const read = usage.cacheReadInputTokens;
  const written = usage.cacheCreationInputTokens;
  const input =
    usage.inputTokens ??
    (usage.totalInputTokens !== undefined
      ? Math.max(0, usage.totalInputTokens - (read ?? 0) - (written ?? 0))
      : undefined);
  return {
    input_tokens: input,
    output_tokens: usage.outputTokens,
    cache_read_tokens: read,
    cache_creation_tokens: written,
  };
}

// A tool's run answers its call: the result's text (a shell's output), or how it ended.
function result(block: JsonObject, at: At): void {
  const id = asText(block.toolUseID) ?? asText(block.tool_use_id);
  const run = AmpRun.parse(asObject(block.run) ?? {});
  const status = run.status;
  const text =
    runText(run.result) ??
    runText(run.progress) ??
    runText(run.error) ??
    (status !== undefined ? `[${status}]` : (runText(block.content) ?? ''));
  const failed = status !== undefined && FAILED.has(status);
  at.log.result(id, text, { error: failed || run.error !== undefined });
}

// A run's result as text: a string as it is, a shell's `output` (with its exit code when it
// failed), an edit's `diff`, an error's `message`, a list of strings joined, else JSON.
function runText(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  const list = asArray(value);
  if (list) {
    if (list.every((item) => typeof item === 'string')) return list.join('\n');
    return list
      .map((item) => {
        const part = asObject(item);
        return part?.type === 'text' && typeof part.text === 'string'
          ? part.text
          : JSON.stringify(item);
      })
      .join('\n');
  }
  const object = asObject(value);
  const output = asString(object?.output) ?? asString(object?.diff) ?? asString(object?.message);
  if (output !== undefined) {
    const code = asNumber(object?.exitCode);
    return code !== undefined && code !== 0 ? `${output}\n(exit code ${code})` : output;
  }
  return JSON.stringify(value);
}

// Amp's own messages: a summary of the thread so far (compaction) or of another thread.
function info(blocks: unknown[], turn: Turn, at: At): void {
  const texts: string[] = [];
  for (const item of blocks) {
    const block = asObject(item);
    const type = asString(block?.type);
    if (type === 'text') texts.push(asString(block?.text) ?? '');
    else if (type === 'summary') {
      const summary = asObject(block?.summary);
      const text = asString(summary?.summary);
      const other = asString(summary?.thread);
      if (text !== undefined) texts.push(text);
      else if (other !== undefined) texts.push(`Summary of thread ${other}`);
    } else if (typeof item === 'string') texts.push(item);
  }
  const text = texts.join('\n\n');
  if (text === '') return;
  at.log.contextTurn('compaction', { role: 'system', text, time: turn.time, id: turn.id });
}

function imageOf(block: JsonObject): Attachment {
  const source = asObject(block.source);
  return {
    type: 'image',
    name: asText(block.sourcePath)?.split(/[\\/]/).at(-1) ?? null,
    mime_type:
      asText(source?.mediaType) ?? asText(source?.media_type) ?? asText(block.mediaType) ?? null,
    size_bytes: null,
    ref: null,
    provider_id: null,
  };
}

function threadRaw(thread: AmpThread, at: At): JsonObject {
  const raw: JsonObject = {};
  const initial = asObject(thread.env?.initial);
  const tree = asObject((asArray(initial?.trees) ?? [])[0]);
  const cwd = asText(initial?.cwd) ?? uriPath(tree?.uri);
  if (cwd !== undefined) raw.cwd = cwd;
  const repository = asObject(tree?.repository);
  const ref = asText(repository?.ref);
  if (ref !== undefined) raw.git_branch = ref.replace(/^refs\/heads\//, '');
  const url = asText(repository?.url);
  if (url !== undefined) raw.repository_url = url;
  const sha = asText(repository?.sha);
  if (sha !== undefined) raw.git_commit = sha;
  const platform = asObject(initial?.platform);
  const client = asText(platform?.client);
  if (client !== undefined) raw.client = client;
  const version = asText(platform?.clientVersion);
  if (version !== undefined) raw.client_version = version;
  if (thread.agentMode !== undefined) raw.agent_mode = thread.agentMode;
  if (thread.v !== undefined) raw.thread_version = thread.v;
  // A handoff or fork names the thread on the other side; `role` is this thread's part.
  const relations = (thread.relationships ?? []).flatMap((value) => {
    const relation = AmpRelationship.safeParse(value);
    if (!relation.success || relation.data.threadID === undefined) return [];
    const { threadID, type, role, messageIndex, comment } = relation.data;
    const out: JsonObject = { thread_id: threadID, type: type ?? null, role: role ?? null };
    if (messageIndex !== undefined) out.message_index = messageIndex;
    if (comment !== undefined) out.comment = comment;
    return [out];
  });
  if (relations.length > 0) raw.related_threads = relations;
  const from = relations.find((r) => r.role === 'child' && r.type === 'handoff');
  if (from) raw.handed_off_from = from.thread_id ?? null;
  raw.message_counts = at.counts;
  return raw;
}
