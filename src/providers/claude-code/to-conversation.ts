import { firstPromptTitle } from './first-prompt-title.js';
import { mostCompleteByUuid } from './most-complete.js';
import { buildConversation } from '../../model/build-conversation.js';
import type { DraftMessage } from '../../model/draft.js';
import { thoughtDrafts } from '../../model/thought-drafts.js';
import { toolResultText } from '../tool-result-text.js';
import { readAnthropicBlocks } from '../anthropic-blocks.js';
import type { Attachment, Conversation, JsonObject, Role, ToolCall } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import type { LinesValue } from '../../read/record.js';
import { baseName } from '../../read/entry.js';
import type { ConversionContext } from '../provider.js';
import { asArray, asObject, asString, asText, without } from '../untrusted.js';
import { BOOKKEEPING_TYPES, MAPPED_ENTRY_KEYS, MESSAGE_TYPES, WRAPPER } from './raw.js';

const ROLES: Record<string, Role> = { user: 'user', assistant: 'assistant', system: 'system' };

/** One logical entry: an API reply split over several lines is merged back into one. */
interface LogicalEntry {
  entry: JsonObject;
  uuids: string[];
  blocks: unknown[];
  line: number;
}

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
  let sessionId: string | undefined;
  let agentId: string | undefined;
  let cwd: string | undefined;
  let gitBranch: string | undefined;
  let version: string | undefined;
  let customTitle: string | undefined;
  let aiTitle: string | undefined;
  const summaries: { text: string; leaf: string | undefined }[] = [];
  const counts: Record<string, number> = {};
  const unknownEntries: JsonObject[] = [];
  let duplicates = 0;
  const logical: LogicalEntry[] = [];
  const byMessageId = new Map<string, LogicalEntry>();

  entries.forEach((entry, i) => {
    if (!entry) {
      counts['(not an object)'] = (counts['(not an object)'] ?? 0) + 1;
      return;
    }
    const type = asString(entry.type) ?? '(no type)';
    counts[type] = (counts[type] ?? 0) + 1;
    sessionId ??= asText(entry.sessionId);
    agentId ??= asText(entry.agentId);
    cwd = asText(entry.cwd) ?? cwd;
    gitBranch = asText(entry.gitBranch) ?? gitBranch;
    version = asText(entry.version) ?? version;
    if (type === 'summary') {
      const text = asText(entry.summary);
      if (text) summaries.push({ text, leaf: asText(entry.leafUuid) });
      return;
    }
    if (type === 'custom-title') {
      customTitle = asText(entry.customTitle) ?? asText(entry.title) ?? customTitle;
      return;
    }
    if (type === 'ai-title') {
      aiTitle = asText(entry.aiTitle) ?? asText(entry.title) ?? aiTitle;
      return;
    }
    if (!MESSAGE_TYPES.has(type)) {
      if (!BOOKKEEPING_TYPES.has(type)) {
        unknownEntries.push(entry);
        context.report({
          level: 'info',
          code: 'unknown-entry-type',
          message: `entry type "${type}" is not mapped; it is kept in raw_metadata.unknown_entries`,
          record: `line ${i + 1}`,
        });
      }
      return;
    }
    const uuid = asText(entry.uuid) ?? `line-${i + 1}`;
    // Resumed and forked sessions write earlier entries again with the same uuid; of such
    // copies the most complete is kept (a broken `"message": "error"` loses to one with text).
    const chosen = best.get(uuid);
    if (seen.has(uuid) || (chosen !== undefined && chosen !== entry)) {
      duplicates++;
      return;
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
    if (group) {
      // One API reply split over lines, one block each, sharing message.id.
      group.uuids.push(uuid);
      group.blocks.push(...blocks);
      return;
    }
    const item: LogicalEntry = { entry, uuids: [uuid], blocks: [...blocks], line: i + 1 };
    if (messageId !== undefined) byMessageId.set(messageId, item);
    logical.push(item);
  });

  // Every uuid answers to the key of the message it ended up in (or, for a line that only
  // carried tool results, to the message before it).
  const keyOf = new Map<string, string>();
  const resolve = (uuid: string | undefined): string | null => {
    let at = uuid;
    const visited = new Set<string>();
    while (at !== undefined && !visited.has(at)) {
      visited.add(at);
      const key = keyOf.get(at);
      if (key === undefined) return null;
      if (key === at) return at;
      at = key;
    }
    return null;
  };
  const calls = new Map<string, ToolCall>();
  const drafts: DraftMessage[] = [];
  const draftByKey = new Map<string, DraftMessage>();
  const callOwner = new Map<ToolCall, DraftMessage>();
  const pendingResults: {
    block: JsonObject;
    holder: DraftMessage | undefined;
    agentId: string | undefined;
  }[] = [];
  let previous: string | null = null;
  let model: string | null = null;

  for (const item of logical) {
    const { entry } = item;
    const type = asString(entry.type) ?? '';
    const key = item.uuids[0] as string;
    const explicitParent = asText(entry.parentUuid) ?? asText(entry.logicalParentUuid);
    // Older logs have parentUuid null on every line: those chain in file order.
    const parentKey =
      explicitParent !== undefined ? (resolve(explicitParent) ?? previous) : previous;
    const { texts, citations, thoughts, toolCalls, toolUseExtras, results, unknownBlocks, images } =
      readAnthropicBlocks(item.blocks, calls, context, `line ${item.line}`);
    const attachments: Attachment[] = [...images];
    // A user line holding only tool results is not a turn: the results go to their calls.
    if (type === 'user' && results.length > 0 && texts.length === 0 && attachments.length === 0) {
      const holder = (parentKey !== null ? draftByKey.get(parentKey) : undefined) ?? drafts.at(-1);
      // A Task/Agent call's result names the subagent it started (toolUseResult.agentId).
      const agentId = asText(asObject(entry.toolUseResult)?.agentId);
      for (const block of results) pendingResults.push({ block, holder, agentId });
      for (const uuid of item.uuids) keyOf.set(uuid, parentKey ?? uuid);
      if (parentKey === null) for (const uuid of item.uuids) keyOf.delete(uuid);
      continue;
    }
    for (const block of results)
      pendingResults.push({ block, holder: undefined, agentId: undefined });
    for (const uuid of item.uuids) keyOf.set(uuid, key);
    const message = asObject(entry.message);
    const role = ROLES[type] ?? 'user';
    const createdAt = toTimestamp(entry.timestamp);
    const entryModel = type === 'assistant' ? (asText(message?.model) ?? null) : null;
    if (entryModel && entryModel !== '<synthetic>') model = entryModel;
    let text = texts.join('\n\n');
    if (type === 'system' && text === '') text = asString(entry.content) ?? '';
    const isMeta = entry.isMeta === true;
    const wrapped = role === 'user' && WRAPPER.test(text);
    const raw: JsonObject = without(entry, MAPPED_ENTRY_KEYS);
    if (item.uuids.length > 1) raw.merged_uuids = item.uuids;
    if (message) {
      const rest = without(message, ['role', 'content', 'model']);
      if (Object.keys(rest).length > 0) raw.message = rest;
    }
    if (unknownBlocks.length > 0) raw.unknown_blocks = unknownBlocks;
    if (toolUseExtras.length > 0) raw.tool_use_extras = toolUseExtras;
    if (isMeta) raw.is_meta = true;
    if (wrapped) raw.command_wrapper = true;
    if (isMeta || wrapped || type === 'system') raw.hidden = true;
    if (explicitParent === undefined && previous !== null) raw.parent_inferred = true;

    const thinking = thoughtDrafts(
      key,
      parentKey,
      thoughts.map((thought) => ({
        text: thought.text,
        createdAt,
        // A redacted block says so (its text is encrypted in `data`).
        raw: thought.block === 'thinking' ? thought.raw : { ...thought.raw, block: thought.block },
      })),
      entryModel,
    );
    drafts.push(...thinking.drafts);
    const parent = thinking.replyParent;
    const draft: DraftMessage = {
      key,
      parentKey: parent,
      provider_message_id: key,
      role,
      content: { type: 'text', text },
      createdAt,
      model: entryModel,
      is_thought: false,
      attachments,
      citations,
      tool_calls: toolCalls,
      raw_metadata: raw,
    };
    drafts.push(draft);
    draftByKey.set(key, draft);
    for (const call of toolCalls) callOwner.set(call, draft);
    previous = key;
  }

  for (const { block, holder, agentId } of pendingResults) {
    const id = asText(block.tool_use_id);
    const call = id !== undefined ? calls.get(id) : undefined;
    const content = block.content;
    const output = toolResultText(content);
    if (!call) {
      context.report({
        level: 'warning',
        code: 'orphan-tool-result',
        message: `tool_result for ${id ?? 'no id'} has no matching tool_use; kept in raw_metadata.orphan_tool_results`,
        record: context.record,
      });
      const target = holder ?? drafts.at(-1);
      if (target) {
        const list = Array.isArray(target.raw_metadata.orphan_tool_results)
          ? (target.raw_metadata.orphan_tool_results as unknown[])
          : [];
        list.push({ tool_use_id: id ?? null, output });
        target.raw_metadata.orphan_tool_results = list;
      }
      continue;
    }
    call.output = call.output === null ? output : `${call.output}\n${output}`;
    // Maps, not searches: a long session has thousands of results to pair.
    const caller = callOwner.get(call);
    if (agentId !== undefined && caller && sessionId !== undefined) {
      const started = Array.isArray(caller.raw_metadata.subagents)
        ? (caller.raw_metadata.subagents as unknown[])
        : [];
      started.push({ tool_use_id: call.id, conversation_id: `${sessionId}/agent-${agentId}` });
      caller.raw_metadata.subagents = started;
    }
    if (block.is_error === true && caller) {
      const errors = Array.isArray(caller.raw_metadata.tool_errors)
        ? (caller.raw_metadata.tool_errors as unknown[])
        : [];
      errors.push(call.id);
      caller.raw_metadata.tool_errors = errors;
    }
  }

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
  const base = sessionId ?? baseName(context.file).replace(/\.jsonl$/i, '');
  const conversationId =
    variant === 'subagent' ? `${base}/agent-${agentId ?? fileAgent ?? 'unknown'}` : base;
  const uuids = new Set(drafts.map((d) => d.key));
  const summary =
    [...summaries].reverse().find((s) => s.leaf !== undefined && uuids.has(s.leaf)) ??
    summaries.at(-1);
  const times = drafts
    .map((d) => d.createdAt)
    .filter((t): t is string => t !== undefined)
    .sort();
  const rawMetadata: JsonObject = { entry_counts: counts };
  if (cwd) rawMetadata.cwd = cwd;
  if (gitBranch) rawMetadata.git_branch = gitBranch;
  if (version) rawMetadata.cli_version = version;
  if (sessionId) rawMetadata.session_id = sessionId;
  if (variant === 'subagent') rawMetadata.agent_id = agentId ?? fileAgent ?? null;
  if (duplicates > 0) rawMetadata.duplicate_entries = duplicates;
  if (unknownEntries.length > 0) rawMetadata.unknown_entries = unknownEntries;
  if (summaries.length > 0) rawMetadata.summaries = summaries.map((s) => s.text);
  return buildConversation(
    {
      provider: {
        name: 'claude-code',
        conversation_id: conversationId,
        account_id: null,
        export_format_version: `claude-code/${variant}${version ? `/${version}` : ''}`,
      },
      title: customTitle ?? aiTitle ?? summary?.text ?? firstPromptTitle(drafts, rawMetadata),
      createdAt: times[0],
      updatedAt: times.at(-1),
      messages: drafts,
      shownLeafKey: undefined,
      model,
      system_instruction: null,
      is_archived: false,
      raw_metadata: rawMetadata,
      assistantName: 'Claude Code',
    },
    context,
  );
}
