import type { JsonObject } from '../../model/pam.js';
import type { ConversionContext } from '../provider.js';
import { asArray, asObject, asString, asText } from '../untrusted.js';
import { BOOKKEEPING_TYPES, MESSAGE_TYPES } from './raw.js';

/** One logical entry: an API reply split over several lines is merged back into one. */
export interface LogicalEntry {
  entry: JsonObject;
  uuids: string[];
  blocks: unknown[];
  line: number;
  /** The `message.usage` of each line of the reply (the API writes a reply over several). */
  usages: JsonObject[];
}

/** What one pass over a session's lines learns: its metadata and its logical message entries. */
export interface SessionScan {
  sessionId: string | undefined;
  agentId: string | undefined;
  cwd: string | undefined;
  gitBranch: string | undefined;
  version: string | undefined;
  customTitle: string | undefined;
  aiTitle: string | undefined;
  summaries: { text: string; leaf: string | undefined }[];
  counts: Record<string, number>;
  unknownEntries: JsonObject[];
  duplicates: number;
  /** The session `/branch` (`--fork-session`) copied its lines from, and how many it copied. */
  forkedFrom: string | undefined;
  replayed: number;
  logical: LogicalEntry[];
}

/**
 * Reads a session's lines once: session metadata (ids, cwd, branch, version), titles and
 * summaries, unknown entry types (reported, kept raw), and the message entries, with copies
 * written again by resumed sessions dropped and split API replies merged by `message.id`.
 */
export function scanSession(
  entries: (JsonObject | undefined)[],
  context: ConversionContext,
  seen: Set<string>,
  best: ReadonlyMap<string, JsonObject>,
): SessionScan {
  const scan = emptyScan();
  const byMessageId = new Map<string, LogicalEntry>();
  entries.forEach((entry, i) => {
    scanEntry(scan, { entry, index: i, context, seen, best, byMessageId });
  });
  return scan;
}

/** A scan before its first line. */
export function emptyScan(): SessionScan {
  return {
    sessionId: undefined,
    agentId: undefined,
    cwd: undefined,
    gitBranch: undefined,
    version: undefined,
    customTitle: undefined,
    aiTitle: undefined,
    summaries: [],
    counts: {},
    unknownEntries: [],
    duplicates: 0,
    forkedFrom: undefined,
    replayed: 0,
    logical: [],
  };
}

/** Where one line of a scan lands and what a scan carries from line to line. */
export interface ScanStep {
  entry: JsonObject | undefined;
  /** The line's index in the file (0-based). */
  index: number;
  context: ConversionContext;
  seen: Set<string>;
  best: ReadonlyMap<string, JsonObject>;
  /** Replies split over lines, by `message.id`, to merge the next part into. */
  byMessageId: Map<string, LogicalEntry>;
}

/**
 * Scans one line into `scan` (a session being followed is scanned line by line as it grows):
 * returns the logical entry the line started or extended (a split reply's later part), if any.
 */
export function scanEntry(scan: SessionScan, step: ScanStep): LogicalEntry | undefined {
  const { entry, index, context } = step;
  if (!entry) {
    scan.counts['(not an object)'] = (scan.counts['(not an object)'] ?? 0) + 1;
    return undefined;
  }
  const type = asString(entry.type) ?? '(no type)';
  scan.counts[type] = (scan.counts[type] ?? 0) + 1;
  // `/branch` and `--fork-session` copy the parent session's lines, each marked `forkedFrom`
  // ({sessionId, messageUuid}): they are the parent's, stored with it, not again here.
  const forked = asObject(entry.forkedFrom);
  if (forked && MESSAGE_TYPES.has(type)) {
    scan.forkedFrom ??= asText(forked.sessionId);
    scan.replayed++;
    return undefined;
  }
  noteSessionFields(scan, entry);
  if (noteTitleOrSummary(scan, type, entry)) return undefined;
  if (!MESSAGE_TYPES.has(type)) {
    if (!BOOKKEEPING_TYPES.has(type)) {
      scan.unknownEntries.push(entry);
      context.report({
        level: 'info',
        code: 'unknown-entry-type',
        message: `entry type "${type}" is not mapped; it is kept in raw_metadata.unknown_entries`,
        record: `line ${index + 1}`,
      });
    }
    return undefined;
  }
  return addMessageEntry(scan, step.byMessageId, {
    entry,
    type,
    line: index + 1,
    seen: step.seen,
    best: step.best,
  });
}

function noteSessionFields(scan: SessionScan, entry: JsonObject): void {
  scan.sessionId ??= asText(entry.sessionId);
  scan.agentId ??= asText(entry.agentId);
  scan.cwd = asText(entry.cwd) ?? scan.cwd;
  scan.gitBranch = asText(entry.gitBranch) ?? scan.gitBranch;
  scan.version = asText(entry.version) ?? scan.version;
}

/** Summary, custom-title and ai-title lines name the session; true when the entry was one. */
function noteTitleOrSummary(scan: SessionScan, type: string, entry: JsonObject): boolean {
  if (type === 'summary') {
    const text = asText(entry.summary);
    if (text) scan.summaries.push({ text, leaf: asText(entry.leafUuid) });
    return true;
  }
  if (type === 'custom-title') {
    scan.customTitle = asText(entry.customTitle) ?? asText(entry.title) ?? scan.customTitle;
    return true;
  }
  if (type === 'ai-title') {
    scan.aiTitle = asText(entry.aiTitle) ?? asText(entry.title) ?? scan.aiTitle;
    return true;
  }
  return false;
}

function addMessageEntry(
  scan: SessionScan,
  byMessageId: Map<string, LogicalEntry>,
  at: {
    entry: JsonObject;
    type: string;
    line: number;
    seen: Set<string>;
    best: ReadonlyMap<string, JsonObject>;
  },
): LogicalEntry | undefined {
  const { entry, type, line, seen, best } = at;
  const uuid = asText(entry.uuid) ?? `line-${line}`;
  // Resumed and forked sessions write earlier entries again with the same uuid; of such
  // copies the most complete is kept (a broken `"message": "error"` loses to one with text).
  const chosen = best.get(uuid);
  if (seen.has(uuid) || (chosen !== undefined && chosen !== entry)) {
    scan.duplicates++;
    return undefined;
  }
  seen.add(uuid);
  const message = asObject(entry.message);
  const content = message?.content;
  const blocks =
    typeof content === 'string'
      ? [{ type: 'text', text: content }]
      : (asArray(content) ?? []).map((b) =>
          typeof b === 'string' ? { type: 'text', text: b } : b,
        );
  const messageId = type === 'assistant' ? asText(message?.id) : undefined;
  const group = messageId !== undefined ? byMessageId.get(messageId) : undefined;
  const usage = asObject(message?.usage);
  if (group) {
    // One API reply split over lines, one block each, sharing message.id.
    group.uuids.push(uuid);
    for (const item of blocks) group.blocks.push(item);
    if (usage) group.usages.push(usage);
    return group;
  }
  const item: LogicalEntry = {
    entry,
    uuids: [uuid],
    blocks: [...blocks],
    line,
    usages: usage ? [usage] : [],
  };
  if (messageId !== undefined) byMessageId.set(messageId, item);
  scan.logical.push(item);
  return item;
}
