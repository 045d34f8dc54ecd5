import type { Conversation, JsonObject } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import { baseName } from '../../read/entry.js';
import { AgentLog, logConversation } from '../agent-log.js';
import { chatConversation, chatRecordsOfDocument } from '../gemini-chat-conversation.js';
import { partsOf, tokenUsageOf } from '../gemini-records.js';
import { logLines, type LogLine } from '../log-lines.js';
import type { ConversionContext } from '../provider.js';
import { contextKindOf } from '../session-context.js';
import { asArray, asObject, asString, asText, without } from '../untrusted.js';

/**
 * Converts one Qwen Code session into a PAM conversation: the current JSON Lines records
 * (`~/.qwen/projects/<project>/chats/<session>.jsonl`: `uuid`/`parentUuid` links, Gemini API
 * `message` parts, `usageMetadata`), or the first versions' Gemini CLI-shaped files.
 */
export function toQwenConversation(
  raw: unknown,
  variant: string,
  context: ConversionContext,
): Conversation | undefined {
  if (variant === 'session-json')
    return chatConversation(chatRecordsOfDocument(asObject(raw) ?? {}), {
      provider: 'qwen-code',
      format: 'qwen-code/session-json',
      assistantTypes: ['qwen', 'gemini'],
      assistantName: 'Qwen Code',
      cwd: undefined,
      context,
    });
  return recordsConversation(logLines(raw, context), context);
}

/** What the records say of the session beside its messages. */
interface SessionFacts {
  sessionId: string | undefined;
  cwd: string | undefined;
  gitBranch: string | undefined;
  version: string | undefined;
  title: string | undefined;
  forkedFrom: string | undefined;
  replayed: number;
  counts: Record<string, number>;
}

function recordsConversation(
  lines: readonly LogLine[],
  context: ConversionContext,
): Conversation | undefined {
  const log = new AgentLog(context);
  const facts: SessionFacts = {
    sessionId: undefined,
    cwd: undefined,
    gitBranch: undefined,
    version: undefined,
    title: undefined,
    forkedFrom: undefined,
    replayed: 0,
    counts: {},
  };
  // Each record's uuid answers to the message it ended in (a tool result to its call's).
  const keyOf = new Map<string, string | null>();
  for (const { line, entry } of lines) {
    if (!entry) continue;
    const type = asString(entry.type) ?? '(no type)';
    facts.counts[type] = (facts.counts[type] ?? 0) + 1;
    facts.sessionId ??= asText(entry.sessionId);
    facts.cwd = asText(entry.cwd) ?? facts.cwd;
    facts.gitBranch = asText(entry.gitBranch) ?? facts.gitBranch;
    facts.version = asText(entry.version) ?? facts.version;
    // `/branch` copies its parent session's records, each marked `forkedFrom`: left to the parent.
    const forked = asObject(entry.forkedFrom);
    if (forked) {
      facts.forkedFrom ??= asText(forked.sessionId);
      facts.replayed++;
      continue;
    }
    const uuid = asText(entry.uuid);
    const parentUuid = asText(entry.parentUuid);
    const parent =
      parentUuid !== undefined
        ? keyOf.has(parentUuid)
          ? (keyOf.get(parentUuid) ?? null)
          : log.last
        : entry.parentUuid === null
          ? null
          : log.last;
    const key = readRecord(entry, { log, context, line, parent, facts });
    if (uuid !== undefined) keyOf.set(uuid, key ?? parent);
  }
  const raw: JsonObject = {};
  if (facts.cwd !== undefined) raw.cwd = facts.cwd;
  if (facts.gitBranch !== undefined) raw.git_branch = facts.gitBranch;
  if (facts.version !== undefined) raw.cli_version = facts.version;
  const id = facts.sessionId ?? baseName(context.file).replace(/\.jsonl$/i, '');
  raw.session_id = id;
  if (facts.forkedFrom !== undefined) raw.forked_from = facts.forkedFrom;
  if (facts.replayed > 0) raw.replayed_parent_lines = facts.replayed;
  raw.entry_counts = facts.counts;
  return logConversation(
    {
      provider: 'qwen-code',
      id,
      format: `qwen-code/session-jsonl${facts.version !== undefined ? `/${facts.version}` : ''}`,
      title: facts.title,
      raw,
      assistantName: 'Qwen Code',
    },
    log,
    context,
  );
}

interface RecordAt {
  log: AgentLog;
  context: ConversionContext;
  line: number;
  parent: string | null;
  facts: SessionFacts;
}

// One record; returns the key of the message it became, if it became one.
function readRecord(entry: JsonObject, at: RecordAt): string | undefined {
  const { log } = at;
  const type = asString(entry.type);
  const time = toTimestamp(entry.timestamp);
  const message = asObject(entry.message);
  const parts = asArray(message?.parts) ?? [];
  const id = asText(entry.uuid);
  const raw = without(entry, [
    'uuid',
    'parentUuid',
    'sessionId',
    'timestamp',
    'type',
    'cwd',
    'version',
    'gitBranch',
    'message',
    'model',
    'usageMetadata',
    'toolCallResult',
  ]);
  if (type === 'user') {
    const { text, files } = partsOf(parts);
    const kind =
      contextKindOf(text) ??
      (asString(entry.subtype) === 'notification' ? 'notification' : undefined);
    const turn = {
      role: 'user' as const,
      text,
      time,
      raw,
      id,
      parent: at.parent,
      attachments: files,
    };
    return (kind !== undefined ? log.contextTurn(kind, turn) : log.add(turn)).key;
  }
  if (type === 'assistant') return assistantRecord(entry, parts, { ...at, time, raw, id });
  if (type === 'tool_result') {
    for (const item of parts) {
      const response = asObject(asObject(item)?.functionResponse);
      if (!response) continue;
      const out = asObject(response.response);
      const text = asString(out?.output) ?? asString(out?.error) ?? JSON.stringify(out ?? null);
      const status = asString(asObject(entry.toolCallResult)?.status);
      log.result(asText(response.id), text, {
        error: status === 'error' || out?.error !== undefined,
        line: at.line,
      });
    }
    return undefined;
  }
  if (type === 'system') return systemRecord(entry, { ...at, time });
  at.context.report({
    level: 'info',
    code: 'unknown-entry-type',
    message: `record type "${type ?? 'without type'}" is not mapped; skipped`,
    record: `line ${at.line}`,
  });
  return undefined;
}

function assistantRecord(
  entry: JsonObject,
  parts: readonly unknown[],
  at: RecordAt & { time: string | undefined; raw: JsonObject; id: string | undefined },
): string {
  const { log } = at;
  const model = asText(entry.model) ?? null;
  const { text, thoughts, files } = partsOf(parts);
  let parent = at.parent;
  for (const thought of thoughts) parent = log.thought(thought, at.time, model, {}, parent).key;
  const reply = log.add({
    role: 'assistant',
    text,
    time: at.time,
    model,
    raw: at.raw,
    id: at.id,
    parent,
    attachments: files,
  });
  for (const item of parts) {
    const call = asObject(asObject(item)?.functionCall);
    if (call)
      log.call(
        {
          id: asText(call.id) ?? null,
          name: asText(call.name) ?? 'tool',
          input: asObject(call.args) ?? null,
          output: null,
        },
        at.time,
        model,
      );
  }
  const usage = asObject(entry.usageMetadata);
  if (usage) log.usage(tokenUsageOf(usage), reply);
  return reply.key;
}

// System records: a compression's summary and commands are kept as context; a title names the
// session; the rest is the CLI's bookkeeping, counted.
function systemRecord(
  entry: JsonObject,
  at: RecordAt & { time: string | undefined },
): string | undefined {
  const subtype = asString(entry.subtype);
  const payload = asObject(entry.systemPayload) ?? {};
  const context = (kind: string, text: string): string | undefined =>
    text === ''
      ? undefined
      : at.log.contextTurn(kind, { role: 'system', text, time: at.time, parent: at.parent }).key;
  if (subtype === 'custom_title') {
    at.facts.title = asText(payload.customTitle) ?? at.facts.title;
    return undefined;
  }
  if (subtype === 'chat_compression') {
    const summary = (asArray(payload.compressedHistory) ?? [])
      .map((content) => partsOf(asObject(content)?.parts).text)
      .filter(Boolean)
      .join('\n\n');
    return context('compaction', summary);
  }
  if (subtype === 'slash_command' && asString(payload.phase) !== 'result')
    return context('command', asString(payload.rawCommand) ?? '');
  if (subtype === 'at_command') return context('at-command', asString(payload.userText) ?? '');
  return undefined;
}
