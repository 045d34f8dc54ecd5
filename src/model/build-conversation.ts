import type { Diagnostic } from './diagnostic.js';
import type { BuildOptions, SettledMessages } from './build-memo.js';
import { builtMessage, idsOf } from './built-messages.js';
import type { DraftConversation, DraftMessage } from './draft.js';
import { growConversation, growState } from './grow-conversation.js';
import { stableId } from './ids.js';
import { oneLine } from './title.js';
import { reportInferred } from './inferred-times.js';
import type { Conversation, JsonObject, Message, Participant, Role } from './pam.js';
import { settleTree, type SettledTree } from './settle-tree.js';
import { PAM_SCHEMA_VERSION } from './pam.js';

/** Where the shown thread ends and how it was chosen, kept in the conversation's `raw_metadata`. */
export const SHOWN_LEAF_KEY = 'shown_leaf_id';

/** The PAM id of a provider's conversation (UUID v5 of provider and platform id). */
export function conversationIdOf(provider: string, platformId: string): string {
  return stableId('conversation', provider, platformId);
}

export type { BuildChange, BuildMemo, BuildOptions, SettledMessages } from './build-memo.js';
export { emptyBuildMemo } from './build-memo.js';

/**
 * Settles a provider's draft into a PAM conversation: deterministic ids, the full tree as
 * `parent_id`/`children_ids`, the shown thread's leaf, and a time for every message (missing
 * ones take the parent's, then the conversation's, and are flagged and reported).
 */
export function buildConversation(draft: DraftConversation, options: BuildOptions): Conversation {
  const conversationKey = draft.provider.conversation_id ?? '';
  const id = conversationIdOf(draft.provider.name, conversationKey);
  const report = (diagnostic: Omit<Diagnostic, 'file' | 'record'>): void => {
    options.report({ ...diagnostic, record: options.record });
  };
  const { memo } = options;
  const idOf = idsOf(draft.provider.name, conversationKey, memo);
  const built =
    (memo && growConversation(draft, memo, idOf, options)) ??
    settleConversation(draft, idOf, options, report);

  const conversationRaw = { ...draft.raw_metadata };
  if (built.shownLeaf !== undefined) conversationRaw[SHOWN_LEAF_KEY] = idOf(built.shownLeaf);
  let conversationCreatedAt = built.conversationCreated;
  if (conversationCreatedAt === undefined) {
    conversationCreatedAt = options.fallbackTime ?? EPOCH;
    conversationRaw.timestamp_inferred = true;
    options.report({
      level: 'info',
      code: 'timestamp-inferred',
      message: 'the conversation had no time at all; it took the export file’s time',
      record: options.record,
    });
  } else if (draft.createdAt === undefined) {
    conversationRaw.timestamp_inferred = true;
  }
  const out = built.messages;
  // A title is one line (the list and search tables show it in one row); the export's own,
  // when it held line breaks or escape codes, stays in raw_metadata.
  const title = draft.title === null ? null : oneLine(draft.title) || null;
  if (draft.title !== null && title !== draft.title) conversationRaw.original_title = draft.title;
  return {
    schema: 'portable-ai-memory-conversation',
    schema_version: PAM_SCHEMA_VERSION,
    id,
    provider: draft.provider,
    title,
    temporal: orderedTemporal(
      conversationCreatedAt,
      draft.updatedAt ?? null,
      conversationRaw,
      report,
    ),
    participants: participantsOf(built.roles, draft.assistantName),
    messages: out,
    model: draft.model ?? mostUsedModel(out),
    system_instruction: draft.system_instruction,
    is_archived: draft.is_archived,
    tags: [],
    raw_metadata: conversationRaw,
  };
}

// The whole tree settled from the drafts; with a memo, kept for the next build to go on from.
function settleConversation(
  draft: DraftConversation,
  idOf: (key: string) => string,
  options: BuildOptions,
  report: (diagnostic: Omit<Diagnostic, 'file' | 'record'>) => void,
): SettledMessages {
  const told: Omit<Diagnostic, 'file'>[] = [];
  const tree = settleTree(draft.messages, (diagnostic) => {
    told.push(diagnostic);
    report(diagnostic);
  });
  const { messages, children } = tree;
  const { memo } = options;
  const conversationCreated =
    draft.createdAt ?? earliest(messages.map((m) => m.createdAt)) ?? draft.updatedAt;
  const { created, inferred } = settleTimes(tree, conversationCreated, options);
  const shownLeaf = chooseShownLeaf(draft, messages, children, created, options);
  const out = tree.order.map((message) =>
    builtMessage(
      message,
      {
        parent: tree.parentOf.get(message.key) ?? null,
        kids: tree.children.get(message.key) ?? [],
        createdAt: created.get(message.key) ?? EPOCH,
        idOf,
        has: (key) => tree.byKey.has(key),
      },
      memo,
    ),
  );
  const settled = { messages: out, shownLeaf, conversationCreated, roles: rolesOf(out) };
  if (memo) {
    memo.changed.clear();
    memo.change = undefined;
    memo.lastBuilt = out;
    memo.grown = growState(draft, tree, { created, inferred, told, ...settled });
  }
  return settled;
}

/** Where a conversation's times as the export gave them are kept when they had to be fixed. */
export const RAW_TEMPORAL_KEY = 'raw_temporal';

/**
 * The conversation's times, `updated_at` never before `created_at` (PAM's validators reject
 * such a pair, and exports have them: a ChatGPT and a Claude.ai fixture). The export's values
 * are kept in `raw_metadata` and the fix is reported.
 */
function orderedTemporal(
  createdAt: string,
  updatedAt: string | null,
  raw: JsonObject,
  report: (diagnostic: Omit<Diagnostic, 'file' | 'record'>) => void,
): Conversation['temporal'] {
  if (updatedAt === null || updatedAt >= createdAt)
    return { created_at: createdAt, updated_at: updatedAt };
  raw[RAW_TEMPORAL_KEY] = { created_at: createdAt, updated_at: updatedAt };
  report({
    level: 'info',
    code: 'updated-before-created',
    message: `the conversation was updated (${updatedAt}) before it was created (${createdAt}); its update time is set to its creation time`,
  });
  return { created_at: createdAt, updated_at: createdAt };
}

/**
 * A time for every message, parents first: a missing one takes the parent's (then the
 * conversation's, then the file's) but never a time later than its first child's.
 */
function settleTimes(
  tree: SettledTree,
  conversationCreated: string | undefined,
  options: BuildOptions,
): { created: Map<string, string>; inferred: number } {
  const created = new Map<string, string>();
  let inferred = 0;
  for (const message of tree.order) {
    let time = message.createdAt;
    if (time === undefined) {
      const parent = tree.parentOf.get(message.key) ?? null;
      time =
        (parent !== null ? created.get(parent) : undefined) ??
        conversationCreated ??
        options.fallbackTime;
      const firstChild = tree.byKey.get(tree.children.get(message.key)?.[0] ?? '')?.createdAt;
      if (firstChild !== undefined && (time === undefined || firstChild < time)) time = firstChild;
      inferred++;
    }
    created.set(message.key, time ?? EPOCH);
  }
  reportInferred(inferred, options);
  return { created, inferred };
}

/** The time of a message nothing gave a time to. */
export const EPOCH = '1970-01-01T00:00:00.000000Z';

function earliest(times: readonly (string | undefined)[]): string | undefined {
  let best: string | undefined;
  for (const time of times)
    if (time !== undefined && (best === undefined || time < best)) best = time;
  return best;
}

function chooseShownLeaf(
  draft: DraftConversation,
  messages: readonly DraftMessage[],
  children: ReadonlyMap<string, readonly string[]>,
  created: ReadonlyMap<string, string>,
  options: BuildOptions,
): string | undefined {
  if (messages.length === 0) return undefined;
  if (draft.shownLeafKey !== undefined && children.has(draft.shownLeafKey))
    return draft.shownLeafKey;
  if (draft.shownLeafKey !== undefined) {
    options.report({
      level: 'warning',
      code: 'shown-leaf-missing',
      message: `the export's current message ${draft.shownLeafKey} is not in the conversation; the latest leaf is shown instead`,
      record: options.record,
    });
  }
  // No word from the export: the most recent leaf (the last in export order on a tie).
  let best: string | undefined;
  let bestTime = '';
  for (const message of messages) {
    if ((children.get(message.key)?.length ?? 0) > 0) continue;
    const time = created.get(message.key) ?? '';
    if (best === undefined || time >= bestTime) {
      best = message.key;
      bestTime = time;
    }
  }
  return best;
}

function rolesOf(messages: readonly Message[]): Set<Role> {
  return new Set<Role>(messages.map((m) => m.role));
}

function participantsOf(roles: ReadonlySet<Role>, assistantName: string): Participant[] {
  const participants: Participant[] = [
    { role: 'user' },
    { role: 'assistant', name: assistantName },
  ];
  if (roles.has('system')) participants.push({ role: 'system' });
  if (roles.has('tool')) participants.push({ role: 'tool' });
  return participants;
}

function mostUsedModel(messages: readonly Message[]): string | null {
  const counts = new Map<string, number>();
  for (const message of messages) {
    if (message.model !== null) counts.set(message.model, (counts.get(message.model) ?? 0) + 1);
  }
  let best: string | null = null;
  let bestCount = 0;
  for (const [model, count] of counts) {
    if (count > bestCount) {
      best = model;
      bestCount = count;
    }
  }
  return best;
}

/** The messages from a root to the given leaf, in order. */
export function threadTo(conversation: Conversation, leafId: string): Message[] {
  const byId = new Map(conversation.messages.map((m) => [m.id, m]));
  const thread: Message[] = [];
  const seen = new Set<string>();
  let at = byId.get(leafId);
  while (at && !seen.has(at.id)) {
    seen.add(at.id);
    thread.push(at);
    at = at.parent_id === null ? undefined : byId.get(at.parent_id);
  }
  return thread.reverse();
}

/** The shown thread of a conversation: root to the leaf the export marked (or the latest leaf). */
export function shownThread(conversation: Conversation): Message[] {
  const leaf = conversation.raw_metadata[SHOWN_LEAF_KEY];
  return typeof leaf === 'string' ? threadTo(conversation, leaf) : [];
}
