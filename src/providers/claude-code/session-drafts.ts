import type { DraftMessage } from '../../model/draft.js';
import { thoughtDrafts } from '../../model/thought-drafts.js';
import { readAnthropicBlocks } from '../anthropic-blocks.js';
import type { Attachment, JsonObject, Role, ToolCall } from '../../model/pam.js';
import { toTimestamp } from '../../model/time.js';
import type { ConversionContext } from '../provider.js';
import { asObject, asString, asText, without } from '../untrusted.js';
import { MAPPED_ENTRY_KEYS, WRAPPER } from './raw.js';
import { claudeUsage } from './usage.js';
import { TOKEN_USAGE_KEY, tokenUsageWithResponse } from '../../model/token-usage.js';
import type { LogicalEntry } from './session-scan.js';

const ROLES: Record<string, Role> = { user: 'user', assistant: 'assistant', system: 'system' };

/** A tool result waiting to be paired with its call once every call is known. */
export interface PendingResult {
  block: JsonObject;
  holder: DraftMessage | undefined;
  agentId: string | undefined;
}

/** The drafts of a session and what pairing tool results with their calls needs. */
export interface SessionDrafts {
  drafts: DraftMessage[];
  calls: Map<string, ToolCall>;
  callOwner: Map<ToolCall, DraftMessage>;
  pendingResults: PendingResult[];
  model: string | null;
}

type Blocks = ReturnType<typeof readAnthropicBlocks>;

/** What drafting carries from one logical entry to the next (a followed session keeps it). */
export interface DraftState {
  out: SessionDrafts;
  /** Every uuid answers to the key of the message it ended up in (or, for a line that only
   * carried tool results, to the message before it). */
  keyOf: Map<string, string>;
  draftByKey: Map<string, DraftMessage>;
  previous: string | null;
}

/** Drafting before the first logical entry. */
export function emptyDraftState(): DraftState {
  return {
    out: { drafts: [], calls: new Map(), callOwner: new Map(), pendingResults: [], model: null },
    keyOf: new Map(),
    draftByKey: new Map(),
    previous: null,
  };
}

/**
 * Turns logical entries into message drafts chained by parent: a parent that ended up inside
 * another message (merged reply, results-only line) resolves to that message; compaction
 * boundaries chain by `logicalParentUuid`; older logs without parents chain in file order.
 */
export function sessionDrafts(logical: LogicalEntry[], context: ConversionContext): SessionDrafts {
  const state = emptyDraftState();
  for (const item of logical) draftEntry(state, item, context);
  return state.out;
}

/**
 * Drafts one logical entry. Returns how to take it back (a followed session's last reply
 * gains a part on a later line and is drafted again), or undefined when it cannot be taken
 * back because it replaced a tool call of an earlier line (same id).
 */
export function draftEntry(
  state: DraftState,
  item: LogicalEntry,
  context: ConversionContext,
): (() => void) | undefined {
  const { out, keyOf, draftByKey } = state;
  const { entry } = item;
  const undo = undoOf(state, item);
  const type = asString(entry.type) ?? '';
  const key = item.uuids[0] as string;
  const explicitParent = asText(entry.parentUuid) ?? asText(entry.logicalParentUuid);
  const previous = state.previous;
  // Older logs have parentUuid null on every line: those chain in file order.
  const parentKey =
    explicitParent !== undefined ? (resolveKey(keyOf, explicitParent) ?? previous) : previous;
  const callsBefore = out.calls.size;
  const blocks = readAnthropicBlocks(item.blocks, out.calls, context, `line ${item.line}`);
  const newCalls = blocks.toolCalls.filter((call) => call.id !== null);
  const replaced = out.calls.size - callsBefore !== new Set(newCalls.map((c) => c.id)).size;
  // A user line holding only tool results is not a turn: the results go to their calls.
  if (
    type === 'user' &&
    blocks.results.length > 0 &&
    blocks.texts.length === 0 &&
    blocks.images.length === 0
  ) {
    const holder =
      (parentKey !== null ? draftByKey.get(parentKey) : undefined) ?? out.drafts.at(-1);
    // A Task/Agent call's result names the subagent it started (toolUseResult.agentId).
    const agentId = asText(asObject(entry.toolUseResult)?.agentId);
    for (const block of blocks.results) out.pendingResults.push({ block, holder, agentId });
    for (const uuid of item.uuids) keyOf.set(uuid, parentKey ?? uuid);
    if (parentKey === null) for (const uuid of item.uuids) keyOf.delete(uuid);
    return replaced ? undefined : undo(newCalls);
  }
  for (const block of blocks.results)
    out.pendingResults.push({ block, holder: undefined, agentId: undefined });
  for (const uuid of item.uuids) keyOf.set(uuid, key);
  const inferred = explicitParent === undefined && previous !== null;
  const draft = entryDrafts(out, item, { type, key, parentKey, inferred, blocks });
  draftByKey.set(key, draft);
  state.previous = key;
  return replaced ? undefined : undo(newCalls);
}

// What drafting one entry changes, noted before it does, to put back on demand.
function undoOf(state: DraftState, item: LogicalEntry): (calls: ToolCall[]) => () => void {
  const { out, keyOf, draftByKey } = state;
  const key = item.uuids[0] as string;
  const keys = item.uuids.map((uuid) => [uuid, keyOf.get(uuid)] as const);
  const draft = draftByKey.get(key);
  const { previous } = state;
  const { model } = out;
  const drafts = out.drafts.length;
  const results = out.pendingResults.length;
  return (calls) => () => {
    for (const [uuid, was] of keys) {
      if (was === undefined) keyOf.delete(uuid);
      else keyOf.set(uuid, was);
    }
    if (draft === undefined) draftByKey.delete(key);
    else draftByKey.set(key, draft);
    state.previous = previous;
    out.model = model;
    out.drafts.length = drafts;
    out.pendingResults.length = results;
    for (const call of calls) {
      out.callOwner.delete(call);
      if (call.id !== null) out.calls.delete(call.id);
    }
  };
}

function resolveKey(keyOf: ReadonlyMap<string, string>, uuid: string | undefined): string | null {
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
}

/** Adds the thought drafts and the reply draft of one entry; returns the reply. */
function entryDrafts(
  out: SessionDrafts,
  item: LogicalEntry,
  at: { type: string; key: string; parentKey: string | null; inferred: boolean; blocks: Blocks },
): DraftMessage {
  const { entry } = item;
  const { type, key, parentKey, blocks } = at;
  const message = asObject(entry.message);
  const role = ROLES[type] ?? 'user';
  const createdAt = toTimestamp(entry.timestamp);
  const entryModel = type === 'assistant' ? (asText(message?.model) ?? null) : null;
  if (entryModel && entryModel !== '<synthetic>') out.model = entryModel;
  let text = blocks.texts.join('\n\n');
  if (type === 'system' && text === '') text = asString(entry.content) ?? '';
  const attachments: Attachment[] = [...blocks.images];
  const thinking = thoughtDrafts(
    key,
    parentKey,
    blocks.thoughts.map((thought) => ({
      text: thought.text,
      createdAt,
      // A redacted block says so (its text is encrypted in `data`).
      raw: thought.block === 'thinking' ? thought.raw : { ...thought.raw, block: thought.block },
    })),
    entryModel,
  );
  for (const item of thinking.drafts) out.drafts.push(item);
  const draft: DraftMessage = {
    key,
    parentKey: thinking.replyParent,
    provider_message_id: key,
    role,
    content: { type: 'text', text },
    createdAt,
    model: entryModel,
    is_thought: false,
    attachments,
    citations: blocks.citations,
    tool_calls: blocks.toolCalls,
    raw_metadata: entryRaw(item, { type, role, text, inferred: at.inferred, blocks }),
  };
  out.drafts.push(draft);
  for (const call of blocks.toolCalls) out.callOwner.set(call, draft);
  return draft;
}

/** The entry's unmapped fields, plus the marks that hide meta lines and command wrappers. */
function entryRaw(
  item: LogicalEntry,
  at: { type: string; role: Role; text: string; inferred: boolean; blocks: Blocks },
): JsonObject {
  const { entry } = item;
  const message = asObject(entry.message);
  const isMeta = entry.isMeta === true;
  const wrapped = at.role === 'user' && WRAPPER.test(at.text);
  const raw: JsonObject = without(entry, MAPPED_ENTRY_KEYS);
  if (item.uuids.length > 1) raw.merged_uuids = item.uuids;
  if (message) {
    const rest = without(message, ['role', 'content', 'model']);
    if (Object.keys(rest).length > 0) raw.message = rest;
  }
  if (at.blocks.unknownBlocks.length > 0) raw.unknown_blocks = at.blocks.unknownBlocks;
  if (at.blocks.injected.length > 0) raw.injected_context = at.blocks.injected;
  if (at.blocks.toolUseExtras.length > 0) raw.tool_use_extras = at.blocks.toolUseExtras;
  const usage = tokenUsageWithResponse(claudeUsage(item.usages), responseIdOf(entry));
  if (usage) raw[TOKEN_USAGE_KEY] = usage;
  if (isMeta) raw.is_meta = true;
  if (wrapped) raw.command_wrapper = true;
  if (isMeta || wrapped || at.type === 'system') raw.hidden = true;
  if (at.inferred) raw.parent_inferred = true;
  return raw;
}

/**
 * The API response a reply's lines came from: `message.id` with the `requestId` (what ccusage
 * dedupes by), or `message.id` alone; a resumed session's copy of the reply names the same.
 */
function responseIdOf(entry: JsonObject): string | undefined {
  const id = asText(asObject(entry.message)?.id);
  if (id === undefined) return undefined;
  const request = asText(entry.requestId);
  return request !== undefined ? `${id}:${request}` : id;
}
