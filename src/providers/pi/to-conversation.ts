import type { Conversation, JsonObject } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import { AgentLog, logConversation } from '../agent-log.js';
import { logLines, type LogLine } from '../log-lines.js';
import type { ConversionContext } from '../provider.js';
import { asArray, asText } from '../untrusted.js';
import { readPiMessage, textOf } from './messages.js';
import { PiEntry, PiHeader, PiMessage } from './raw.js';

// Entries that hold nothing to read as a message: counted in `entry_counts`.
const BOOKKEEPING = new Set([
  'thinking_level_change',
  'custom',
  'ttsr_injection',
  'child_usage_attributed',
]);

/** What the entries say of the session beside its messages. */
interface Facts {
  header: PiHeader;
  title: string | undefined;
  model: string | null;
  /** Entries copied from the session it was forked from (left to that session). */
  replayed: number;
  counts: Record<string, number>;
  labels: { target: string; label: string | undefined }[];
}

/**
 * Converts one pi (or oh-my-pi) session into a PAM conversation: every branch of its entry
 * tree (`id`/`parentId`; version 1 files are one line of entries), each message entry where
 * its parent is (an entry that is not a message passes its place to its children), the
 * summaries of compactions and branches as the session's context, labels on their messages,
 * the name `/name` or the title gave it. A fork (`parentSession`) starts with its parent's
 * entries copied, their times older than its header's: those are left to the parent.
 */
export function toPiConversation(
  raw: unknown,
  variant: string,
  context: ConversionContext,
): Conversation | undefined {
  const lines = logLines(raw, context);
  const at = lines.findIndex((l) => l.entry?.type === 'session');
  const header = PiHeader.parse(lines[at]?.entry ?? {});
  const slot = lines.find((l, i) => i < Math.max(at, 1) && l.entry?.type === 'title');
  const facts: Facts = {
    header,
    title: asText(slot?.entry?.title),
    model: null,
    replayed: 0,
    counts: {},
    labels: [],
  };
  const log = new AgentLog(context);
  readEntries(
    lines.filter((l) => l !== lines[at] && l !== slot),
    { log, facts, context },
  );
  for (const { target, label } of facts.labels) {
    const draft = log.drafts.find((d) => d.provider_message_id === target);
    if (!draft) continue;
    draft.raw_metadata.labels = [...(asArray(draft.raw_metadata.labels) ?? []), label ?? null];
  }
  const id = header.id ?? sessionIdOfFile(context.file);
  return logConversation(
    {
      provider: 'pi',
      id,
      format: `${variant}/session/v${header.version ?? 1}`,
      title: facts.title ?? header.title,
      createdAt: toTimestamp(header.timestamp),
      raw: sessionRaw(facts, variant, context.file),
      assistantName: variant === 'oh-my-pi' ? 'oh-my-pi' : 'pi',
    },
    log,
    context,
  );
}

function readEntries(
  lines: readonly LogLine[],
  state: { log: AgentLog; facts: Facts; context: ConversionContext },
): void {
  const { log, facts, context } = state;
  const forkedAt =
    facts.header.parentSession !== undefined || facts.header.branchedFrom !== undefined
      ? toTimestamp(facts.header.timestamp)
      : undefined;
  // Each entry's id answers to the message it ended in (or its parent's, when it made none).
  const keyOf = new Map<string, string | null>();
  for (const { line, entry: value } of lines) {
    if (!value) continue;
    const entry = PiEntry.parse(value);
    const type = entry.type ?? '(no type)';
    facts.counts[type] = (facts.counts[type] ?? 0) + 1;
    const time = toTimestamp(entry.timestamp) ?? toTimestamp(entry.message?.timestamp);
    const parent =
      entry.parentId !== undefined
        ? (keyOf.get(entry.parentId) ?? null)
        : value.parentId === null
          ? null
          : undefined;
    if (forkedAt !== undefined && time !== undefined && time < forkedAt) {
      facts.replayed++;
      if (entry.id !== undefined) keyOf.set(entry.id, null);
      continue;
    }
    const record = `line ${line}`;
    const at = { log, id: entry.id, parent, time, model: facts.model, record, context };
    let key: string | undefined;
    if (type === 'message') key = readPiMessage(PiMessage.parse(entry.message ?? {}), at);
    else if (type === 'compaction' || type === 'branch_summary') {
      const text = entry.summary ?? '';
      if (text !== '')
        key = log.contextTurn(type === 'compaction' ? 'compaction' : 'branch-summary', {
          role: 'system',
          text,
          time,
          id: entry.id,
          parent,
        }).key;
    } else if (type === 'custom_message') {
      const raw: JsonObject = { custom_type: entry.customType ?? null };
      if (entry.display !== undefined) raw.display = entry.display;
      key = log.contextTurn('extension', {
        role: 'user',
        text: textOf(entry.content),
        time,
        id: entry.id,
        parent,
        raw,
      }).key;
    } else if (type === 'model_change') facts.model = entry.modelId ?? facts.model;
    else if (type === 'session_info') facts.title = entry.name ?? entry.title ?? facts.title;
    else if (type === 'label' && entry.targetId !== undefined)
      facts.labels.push({ target: entry.targetId, label: entry.label });
    else if (!BOOKKEEPING.has(type))
      context.report({
        level: 'info',
        code: 'unknown-entry-type',
        message: `entry type "${type}" is not mapped; skipped`,
        record,
      });
    if (entry.id !== undefined)
      keyOf.set(entry.id, key !== undefined ? key : parent !== undefined ? parent : log.last);
  }
}

function sessionRaw(facts: Facts, variant: string, file: string): JsonObject {
  const { header } = facts;
  const raw: JsonObject = {};
  if (header.cwd !== undefined && header.cwd !== '') raw.cwd = header.cwd;
  if (variant !== 'pi') raw.agent = variant;
  const parent = header.parentSession ?? header.branchedFrom;
  if (parent !== undefined) {
    raw.parent_session = parent;
    raw.forked_from = sessionIdOfFile(parent);
  }
  // oh-my-pi keeps a sub-agent's log in a folder named after its session's file.
  const folder = file.split('/').at(-2);
  const owner = folder !== undefined ? /_([0-9a-f-]{36})$/i.exec(folder)?.[1] : undefined;
  if (owner !== undefined) raw.parent_session_id = owner;
  if (facts.replayed > 0) raw.replayed_parent_lines = facts.replayed;
  raw.entry_counts = facts.counts;
  return raw;
}

// `<time>_<uuid>.jsonl` (or a path to one): the uuid, as the header names the session.
function sessionIdOfFile(path: string): string {
  const name = (path.split(/[\\/]/).at(-1) ?? path).replace(/\.jsonl$/i, '');
  return /_([0-9a-f-]{36})$/i.exec(name)?.[1] ?? name;
}
