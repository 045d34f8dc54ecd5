import type { Attachment, JsonObject } from '../../model/pam.js';
import type { TokenUsage } from '../../model/token-usage.js';
import type { AgentLog } from '../agent-log.js';
import { callInput } from '../call-input.js';
import type { ConversionContext } from '../provider.js';
import { contextKindOf } from '../session-context.js';
import { asArray, asNumber, asObject, asString, asText } from '../untrusted.js';
import type { PiMessage } from './raw.js';

/** Where a message is read: its entry's id and parent, its time, the model then in use. */
export interface MessageAt {
  log: AgentLog;
  id: string | undefined;
  parent: string | null | undefined;
  time: string | undefined;
  model: string | null;
  record: string;
  context: ConversionContext;
}

/**
 * Drafts one message entry and returns the key of the message it ended in (a tool result
 * makes none: it fills its call). The person's words and the model's replies, thinking and
 * tool calls are messages; what pi or an extension puts in the context (a compaction's or a
 * branch's summary, an extension's message, a file an `@` mention read) is kept as the
 * session's context; a `!` shell command the person ran is theirs, with its output.
 */
export function readPiMessage(message: PiMessage, at: MessageAt): string | undefined {
  const { log } = at;
  const role = message.role;
  const text = textOf(message.content);
  const turn = { time: at.time, id: at.id, parent: at.parent };
  if (role === 'user') {
    const kind = contextKindOf(text);
    const user = { ...turn, role: 'user' as const, text, attachments: imagesOf(message.content) };
    return (kind !== undefined ? log.contextTurn(kind, user) : log.add(user)).key;
  }
  if (role === 'assistant') return assistant(message, at);
  if (role === 'toolResult') {
    log.result(message.toolCallId, text, { error: message.isError === true });
    return undefined;
  }
  if (role === 'bashExecution') {
    const raw: JsonObject = { bash_execution: true };
    if (message.exitCode !== undefined) raw.exit_code = message.exitCode;
    const shown = `$ ${message.command ?? ''}${message.output ? `\n${message.output}` : ''}`;
    return log.add({ ...turn, role: 'user', text: shown, raw }).key;
  }
  const context = contextOf(message, text);
  if (context)
    return log.contextTurn(context.kind, {
      ...turn,
      role: context.role,
      text: context.text,
      raw: context.raw,
    }).key;
  at.context.report({
    level: 'info',
    code: 'unknown-entry-type',
    message: `${at.record} is a message of role "${role ?? 'none'}", which is not mapped; skipped`,
    record: at.record,
  });
  return undefined;
}

function assistant(message: PiMessage, at: MessageAt): string {
  const { log } = at;
  const model = message.model ?? at.model;
  let parent = at.parent;
  const texts: string[] = [];
  const calls: JsonObject[] = [];
  const other: unknown[] = [];
  for (const item of asArray(message.content) ?? [message.content]) {
    const block = asObject(item);
    const type = asString(block?.type);
    if (typeof item === 'string') texts.push(item);
    else if (type === 'text') texts.push(asString(block?.text) ?? '');
    else if (type === 'thinking') {
      const thinking = asString(block?.thinking) ?? '';
      if (thinking !== '') parent = log.thought(thinking, at.time, model, {}, parent).key;
    } else if (type === 'toolCall' && block) calls.push(block);
    else if (item !== undefined && item !== null) other.push(item);
  }
  const raw: JsonObject = {};
  if (message.stopReason !== undefined) raw.stop_reason = message.stopReason;
  if (message.errorMessage !== undefined) raw.error_message = message.errorMessage;
  if (message.provider !== undefined) raw.model_provider = message.provider;
  if (other.length > 0) raw.other_content = other;
  // An error reply holds only its error: kept as its text, so it is read and found.
  const text =
    texts.join('\n\n') || (message.stopReason === 'error' ? (message.errorMessage ?? '') : '');
  if (text === '' && calls.length > 0) raw.tool_calls_only = true;
  const reply = log.add({ role: 'assistant', text, time: at.time, model, id: at.id, parent, raw });
  for (const call of calls)
    log.call(
      {
        id: asText(call.id) ?? null,
        name: asText(call.name) ?? 'tool',
        input: callInput(call.arguments),
        output: null,
      },
      at.time,
      model,
    );
  const usage = asObject(message.usage);
  if (usage) log.usage(piUsage(usage), reply);
  return reply.key;
}

/**
 * pi's usage (`input`, `output`, `cacheRead`, `cacheWrite`; oh-my-pi's `cache.read`,
 * `cacheCreation`): `input` already leaves the cached reads out (pi-ai takes them out of
 * OpenAI's prompt tokens itself).
 */
export function piUsage(usage: JsonObject): TokenUsage {
  const cache = asObject(usage.cache);
  return {
    input_tokens: asNumber(usage.input),
    output_tokens: asNumber(usage.output),
    cache_read_tokens: asNumber(usage.cacheRead) ?? asNumber(cache?.read),
    cache_creation_tokens:
      asNumber(usage.cacheWrite) ?? asNumber(usage.cacheCreation) ?? asNumber(cache?.write),
  };
}

// The agent's own messages in the context: a summary, an extension's message, a mention.
function contextOf(
  message: PiMessage,
  text: string,
): { kind: string; role: 'user' | 'system'; text: string; raw: JsonObject } | undefined {
  const role = message.role;
  if (role === 'custom' || role === 'hookMessage') {
    const raw: JsonObject = { custom_type: message.customType ?? null };
    if (message.display !== undefined) raw.display = message.display;
    return { kind: 'extension', role: 'user', text, raw };
  }
  if (role === 'branchSummary')
    return { kind: 'branch-summary', role: 'system', text: message.summary ?? text, raw: {} };
  if (role === 'compactionSummary')
    return { kind: 'compaction', role: 'system', text: message.summary ?? text, raw: {} };
  if (role === 'fileMention') {
    const files = (message.files ?? []).flatMap((item) => {
      const file = asObject(item);
      return file ? [`${asString(file.path) ?? ''}\n${asString(file.content) ?? ''}`] : [];
    });
    return { kind: 'file-mention', role: 'user', text: files.join('\n\n'), raw: {} };
  }
  return undefined;
}

/** A message's text: a string as it is, its text blocks joined. */
export function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return (asArray(content) ?? [])
    .flatMap((item) => {
      const block = asObject(item);
      return asString(block?.type) === 'text' ? [asString(block?.text) ?? ''] : [];
    })
    .join('\n');
}

// Images sent with a message (their base64 data is not copied).
function imagesOf(content: unknown): Attachment[] {
  return (asArray(content) ?? []).flatMap((item) => {
    const block = asObject(item);
    if (asString(block?.type) !== 'image') return [];
    return [
      {
        type: 'image' as const,
        name: null,
        mime_type: asText(block?.mimeType) ?? null,
        size_bytes: null,
        ref: null,
        provider_id: null,
      },
    ];
  });
}
