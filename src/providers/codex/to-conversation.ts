import type { Conversation, JsonObject } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import { baseName } from '../../read/entry.js';
import { AgentLog, logConversation } from '../agent-log.js';
import { logLines, type LogLine } from '../log-lines.js';
import type { ConversionContext } from '../provider.js';
import { asArray, asObject, asString, asText } from '../untrusted.js';
import { forkGate } from './fork-gate.js';
import { readEvent, usageOf, type EventState } from './rollout-events.js';
import { readResponseItem, Said, type ItemAt } from './response-items.js';

/** Kept at most in `raw_metadata.unknown_items` (an unknown type of a future version). */
const UNKNOWN_KEPT = 50;

/**
 * Converts one Codex CLI rollout into a PAM conversation. Three generations: the current
 * envelope (`{timestamp, type, payload}` lines: `session_meta`, `turn_context`,
 * `response_item`, `event_msg`, `compacted`), the 2025 lines without envelope (a first line
 * of session metadata, then response items, with `record_type: state` lines between), and the
 * first CLI's JSON file (`{session, items}`). A fork's lines copied from its parent are left
 * to the parent (`fork-gate.ts`); what Codex writes both as an item and as an event is kept
 * once.
 */
export function toCodexConversation(
  raw: unknown,
  variant: string,
  context: ConversionContext,
): Conversation | undefined {
  if (variant === 'rollout-json') return jsonRollout(asObject(raw) ?? {}, context);
  const lines = logLines(raw, context);
  const envelope = lines.some(
    (l) => asString(l.entry?.type) === 'session_meta' || asObject(l.entry?.payload),
  );
  return envelope ? envelopeRollout(lines, context) : legacyRollout(lines, context);
}

function envelopeRollout(
  lines: readonly LogLine[],
  context: ConversionContext,
): Conversation | undefined {
  const gate = forkGate(lines);
  const own = lines.filter((l) => !gate.replayed.has(l.line) && !gate.headers.has(l.line));
  const said = new Said();
  for (const line of own) for (const item of itemsOf(line)) said.noteItem(item);
  // TRAE CLI (a Codex fork) writes `token_usage_record` lines instead of `token_count` events.
  const counted = own.some((l) => asString(asObject(l.entry?.payload)?.type) === 'token_count');
  const log = new AgentLog(context);
  const at: ItemAt = { log, context, time: undefined, model: null, line: 0, said, unknown: [] };
  const state: EventState = { title: undefined, lastTotal: undefined, counts: {} };
  const meta =
    asObject(lines.find((l) => asString(l.entry?.type) === 'session_meta')?.entry?.payload) ?? {};
  let cwd = asText(meta.cwd);
  const unknownEntries: JsonObject[] = [];
  for (const { line, entry } of own) {
    if (!entry) continue;
    const type = asString(entry.type);
    const payload = asObject(entry.payload) ?? {};
    at.time = toTimestamp(entry.timestamp);
    at.line = line;
    if (type === 'turn_context') {
      at.model = asText(payload.model) ?? at.model;
      cwd = asText(payload.cwd) ?? cwd;
    } else if (type === 'response_item' || type === 'history_mutation')
      for (const item of itemsOf({ line, entry })) readResponseItem(item, at);
    else if (type === 'event_msg') readEvent(payload, at, state);
    else if (type === 'token_usage_record') {
      const usage = asObject(payload.usage);
      if (usage && !counted) log.usage(usageOf(usage));
    } else if (type === 'compacted') {
      const text = asString(payload.message) ?? '';
      if (text !== '')
        log.contextTurn('compaction', { role: 'assistant', text, time: at.time, model: at.model });
    } else if (type !== 'session_meta' && type !== 'fork_reference' && type !== 'world_state') {
      if (unknownEntries.length < UNKNOWN_KEPT) unknownEntries.push(entry);
      context.report({
        level: 'info',
        code: 'unknown-entry-type',
        message: `line type "${type ?? 'without type'}" is not mapped; it is kept in raw_metadata.unknown_entries`,
        record: `line ${line}`,
      });
    }
  }
  if (gate.boundaryUnknown)
    context.report({
      level: 'info',
      code: 'fork-boundary-unknown',
      message: `the rollout is a fork of ${gate.forkedFrom ?? 'another session'} but where its copy of the parent ends is not marked; every line is kept`,
      record: context.record,
    });
  const raw = sessionRaw(meta, {
    cwd: cwd ?? cwdOfContext(log),
    gate,
    state,
    unknownEntries,
    unknownItems: at.unknown,
  });
  return logConversation(
    {
      provider: 'codex',
      id: gate.ownId ?? fileSessionId(context.file),
      format: `codex/rollout${asText(meta.cli_version) ? `/${asText(meta.cli_version) ?? ''}` : ''}`,
      title: state.title,
      raw,
      assistantName: 'Codex',
    },
    log,
    context,
  );
}

function sessionRaw(
  meta: JsonObject,
  at: {
    cwd: string | undefined;
    gate: ReturnType<typeof forkGate>;
    state: EventState;
    unknownEntries: JsonObject[];
    unknownItems: JsonObject[];
  },
): JsonObject {
  const raw: JsonObject = {};
  if (at.cwd !== undefined) raw.cwd = at.cwd;
  const git = asObject(meta.git);
  if (asText(git?.branch) !== undefined) raw.git_branch = asText(git?.branch);
  if (asText(git?.commit_hash) !== undefined) raw.git_commit = asText(git?.commit_hash);
  if (asText(git?.repository_url) !== undefined) raw.repository_url = asText(git?.repository_url);
  for (const key of ['cli_version', 'originator', 'model_provider', 'agent_nickname', 'agent_role'])
    if (asText(meta[key]) !== undefined) raw[key] = asText(meta[key]);
  if (at.gate.ownId !== undefined) raw.session_id = at.gate.ownId;
  const source = meta.source;
  if (typeof source === 'string') raw.session_source = source;
  const spawn = asObject(asObject(asObject(source)?.subagent)?.thread_spawn);
  if (asText(spawn?.parent_thread_id) !== undefined)
    raw.parent_session_id = asText(spawn?.parent_thread_id);
  if (at.gate.forkedFrom !== undefined) raw.forked_from = at.gate.forkedFrom;
  if (at.gate.replayed.size > 0) raw.replayed_parent_lines = at.gate.replayed.size;
  if (Object.keys(at.state.counts).length > 0) raw.event_counts = at.state.counts;
  if (at.unknownEntries.length > 0) raw.unknown_entries = at.unknownEntries;
  if (at.unknownItems.length > 0) raw.unknown_items = at.unknownItems.slice(0, UNKNOWN_KEPT);
  return raw;
}

// The response items a line holds: a `response_item`'s payload, or the items a TRAE CLI
// `history_mutation` appends.
function itemsOf(line: LogLine): JsonObject[] {
  const type = asString(line.entry?.type);
  const payload = asObject(line.entry?.payload);
  if (type === 'response_item') return payload ? [payload] : [];
  if (type !== 'history_mutation') return [];
  return (asArray(payload?.items) ?? []).flatMap((item) => {
    const object = asObject(item);
    return object ? [object] : [];
  });
}

// The 2025 rollouts: a first line of session metadata (`id`, `timestamp`, `instructions`,
// `git`), then response items one a line, with no time of their own.
function legacyRollout(
  lines: readonly LogLine[],
  context: ConversionContext,
): Conversation | undefined {
  const first = lines[0]?.entry;
  const isMeta =
    first !== undefined && asString(first.type) === undefined && asText(first.id) !== undefined;
  const meta = isMeta ? first : {};
  const items = (isMeta ? lines.slice(1) : lines).filter((l) => l.entry?.record_type === undefined);
  return itemsConversation(
    items.flatMap((l) => (l.entry ? [{ item: l.entry, line: l.line }] : [])),
    meta,
    { format: 'codex/rollout-legacy', context },
  );
}

// The first Codex CLI's JSON rollouts: `{session: {id, timestamp, instructions}, items}`.
function jsonRollout(value: JsonObject, context: ConversionContext): Conversation | undefined {
  const items = (asArray(value.items) ?? []).flatMap((item, i) => {
    const object = asObject(item);
    return object ? [{ item: object, line: i + 1 }] : [];
  });
  return itemsConversation(items, asObject(value.session) ?? {}, {
    format: 'codex/rollout-json',
    context,
  });
}

function itemsConversation(
  items: readonly { item: JsonObject; line: number }[],
  meta: JsonObject,
  at: { format: string; context: ConversionContext },
): Conversation | undefined {
  const { context } = at;
  const log = new AgentLog(context);
  const said = new Said();
  const state: ItemAt = { log, context, time: undefined, model: null, line: 0, said, unknown: [] };
  for (const { item, line } of items) {
    state.line = line;
    state.time = toTimestamp(item.timestamp);
    readResponseItem(item, state);
  }
  const raw: JsonObject = {};
  const cwd = asText(meta.cwd) ?? cwdOfContext(log);
  if (cwd !== undefined) raw.cwd = cwd;
  const branch = asText(asObject(meta.git)?.branch);
  if (branch !== undefined) raw.git_branch = branch;
  const id = asText(meta.id) ?? fileSessionId(context.file);
  raw.session_id = id;
  if (state.unknown.length > 0) raw.unknown_items = state.unknown.slice(0, UNKNOWN_KEPT);
  const conversation = logConversation(
    {
      provider: 'codex',
      id,
      format: at.format,
      createdAt: toTimestamp(meta.timestamp),
      raw,
      assistantName: 'Codex',
    },
    log,
    context,
  );
  const instructions = asText(meta.instructions);
  if (conversation && instructions !== undefined) conversation.system_instruction = instructions;
  return conversation;
}

// The working folder an `<environment_context>` turn names, for rollouts whose metadata does not.
function cwdOfContext(log: AgentLog): string | undefined {
  for (const draft of log.drafts) {
    if (draft.raw_metadata.context !== 'environment-context') continue;
    const text = draft.content?.text ?? '';
    // `<cwd>…</cwd>` since late 2025; `Current working directory: …` before.
    const cwd = (/<cwd>([^<]+)<\/cwd>/.exec(text) ??
      /Current working directory: (.+)/.exec(text))?.[1]?.trim();
    if (cwd) return cwd;
  }
  return undefined;
}

// A rollout's session id from its name (`rollout-2025-05-07T17-24-21-<uuid>.jsonl`), else the name.
function fileSessionId(file: string): string {
  const name = baseName(file).replace(/\.jsonl?$/i, '');
  return /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i.exec(name)?.[1] ?? name;
}
