import { firstPromptTitle } from '../first-prompt-title.js';
import { mostCompleteByUuid } from './most-complete.js';
import { pairToolResults } from './pair-tool-results.js';
import { sessionDrafts, type SessionDrafts } from './session-drafts.js';
import { scanSession, type SessionScan } from './session-scan.js';
import { draftsIndex, type DraftsIndex } from './drafts-index.js';
import { buildConversation, type BuildMemo } from '../../model/build-conversation.js';
import type { Conversation, JsonObject } from '../../model/pam.js';
import type { LinesValue } from '../../read/record.js';
import { baseName } from '../../read/entry.js';
import type { ConversionContext } from '../provider.js';
import { asArray, asObject, asString, asText } from '../untrusted.js';

/**
 * Converts one Claude Code session file (all its lines) into a PAM conversation: replies split
 * over lines merged by `message.id`, entries repeated by resumed sessions kept once (by `uuid`),
 * tool results attached to their calls (never empty user turns), meta entries and command
 * wrappers kept but marked hidden, compaction boundaries bridged by `logicalParentUuid`.
 */
export function toClaudeCodeConversation(
  raw: unknown,
  variant: string,
  context: ConversionContext,
): Conversation | Conversation[] | undefined {
  const value = (asObject(raw) ?? {}) as Partial<LinesValue>;
  const entries = (asArray(value.entries) ?? []).map((e) => asObject(e));
  for (const item of asArray(value.badLines) ?? []) {
    const bad = asObject(item);
    if (!bad) continue;
    const line = typeof bad.line === 'number' ? bad.line : 0;
    context.report({
      level: 'error',
      code: 'malformed-line',
      message: `line ${line} is not valid JSON (${asString(bad.message) ?? 'unreadable'}); skipped`,
      record: `line ${line}`,
    });
  }
  if (value.cutLastLine === true) {
    context.report({
      level: 'info',
      code: 'session-being-written',
      message:
        'the last line is incomplete (a session still being written); the lines before it were read',
      record: context.record,
    });
  }
  // A file can interleave another session's lines: each session becomes its own conversation.
  // The file's own session is the one named like the file (else the most frequent); lines
  // without a sessionId (summaries, titles) belong to it.
  const bySession = new Map<string, (JsonObject | undefined)[]>();
  const fileSession = baseName(context.file).replace(/\.jsonl$/i, '');
  const tally = new Map<string, number>();
  for (const entry of entries) {
    const id = asText(entry?.sessionId);
    if (id !== undefined) tally.set(id, (tally.get(id) ?? 0) + 1);
  }
  const main = tally.has(fileSession)
    ? fileSession
    : ([...tally].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '');
  for (const entry of entries) {
    const id = asText(entry?.sessionId) ?? main;
    const list = bySession.get(id);
    if (list) list.push(entry);
    else bySession.set(id, [entry]);
  }
  const seen = new Set<string>();
  const best = mostCompleteByUuid(entries);
  const conversations: Conversation[] = [];
  const ordered = [main, ...[...bySession.keys()].filter((k) => k !== main)];
  for (const id of ordered) {
    const group = bySession.get(id);
    if (!group) continue;
    const conversation = sessionConversation(
      group,
      id === main ? variant : 'session',
      context,
      seen,
      best,
    );
    if (conversation) conversations.push(conversation);
  }
  if (conversations.length === 0) return undefined;
  return conversations.length === 1 ? conversations[0] : conversations;
}

function sessionConversation(
  entries: (JsonObject | undefined)[],
  variant: string,
  context: ConversionContext,
  seen: Set<string>,
  best: ReadonlyMap<string, JsonObject>,
): Conversation | undefined {
  const scan = scanSession(entries, context, seen, best);
  const session = sessionDrafts(scan.logical, context);
  pairToolResults(session, scan.sessionId, context);
  return scannedConversation(scan, session, variant, context);
}

/**
 * The conversation of a scanned and drafted session (tool results paired). A followed session
 * passes a `memo`: messages whose drafts did not change are the previous build's objects.
 */
export function scannedConversation(
  scan: SessionScan,
  session: SessionDrafts,
  variant: string,
  context: ConversionContext,
  memo?: BuildMemo,
): Conversation | undefined {
  const { drafts } = session;
  const { duplicates, summaries } = scan;
  if (duplicates > 0) {
    context.report({
      level: 'info',
      code: 'duplicate-entry',
      message: `${duplicates} entr${duplicates === 1 ? 'y was' : 'ies were'} repeated (resumed or forked session) and kept once`,
      record: context.record,
    });
  }
  if (drafts.length === 0 && summaries.length === 0) {
    context.report({
      level: 'warning',
      code: 'empty-session',
      message: 'the session file holds no messages; skipped',
      record: context.record,
    });
    return undefined;
  }
  // Subagent files carry their parent's sessionId: their id adds the agent's.
  const fileAgent = /agent-([^/.]+)\.jsonl$/.exec(context.file)?.[1];
  const base = scan.sessionId ?? baseName(context.file).replace(/\.jsonl$/i, '');
  const conversationId =
    variant === 'subagent' ? `${base}/agent-${scan.agentId ?? fileAgent ?? 'unknown'}` : base;
  const index = draftsIndex(drafts, memo);
  const summary = summaryOf(summaries, index);
  const { first, last } = index;
  const rawMetadata = sessionRaw(scan, variant, fileAgent);
  const { version } = scan;
  return buildConversation(
    {
      provider: {
        name: 'claude-code',
        conversation_id: conversationId,
        account_id: null,
        export_format_version: `claude-code/${variant}${version ? `/${version}` : ''}`,
      },
      title:
        scan.customTitle ?? scan.aiTitle ?? summary?.text ?? firstPromptTitle(drafts, rawMetadata),
      createdAt: first,
      updatedAt: last,
      messages: drafts,
      shownLeafKey: undefined,
      model: session.model,
      system_instruction: null,
      is_archived: false,
      raw_metadata: rawMetadata,
      assistantName: 'Claude Code',
    },
    memo ? { ...context, memo } : context,
  );
}

// The summary naming the session: the last whose leaf is one of its messages. A summary names
// the session it belongs to by \`leafUuid\`, and may sit in another session's file (a resumed
// session's file holds the summaries of the sessions before it): one whose leaf is elsewhere is
// never this session's title. Only a summary with no leaf at all (older versions) is taken as is.
function summaryOf(
  summaries: SessionScan['summaries'],
  drafts: DraftsIndex,
): SessionScan['summaries'][number] | undefined {
  const reversed = [...summaries].reverse();
  return (
    reversed.find((s) => s.leaf !== undefined && drafts.has(s.leaf)) ??
    reversed.find((s) => s.leaf === undefined)
  );
}

function sessionRaw(scan: SessionScan, variant: string, fileAgent: string | undefined): JsonObject {
  const rawMetadata: JsonObject = { entry_counts: scan.counts };
  if (scan.cwd) rawMetadata.cwd = scan.cwd;
  if (scan.gitBranch) rawMetadata.git_branch = scan.gitBranch;
  if (scan.version) rawMetadata.cli_version = scan.version;
  if (scan.sessionId) rawMetadata.session_id = scan.sessionId;
  if (variant === 'subagent') rawMetadata.agent_id = scan.agentId ?? fileAgent ?? null;
  if (scan.duplicates > 0) rawMetadata.duplicate_entries = scan.duplicates;
  if (scan.forkedFrom !== undefined) rawMetadata.forked_from = scan.forkedFrom;
  if (scan.replayed > 0) rawMetadata.replayed_parent_lines = scan.replayed;
  if (scan.unknownEntries.length > 0) rawMetadata.unknown_entries = scan.unknownEntries;
  if (scan.summaries.length > 0) rawMetadata.summaries = scan.summaries.map((s) => s.text);
  return rawMetadata;
}
