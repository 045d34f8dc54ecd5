import type { Diagnostic } from './diagnostic.js';
import type { DraftConversation, DraftMessage } from './draft.js';
import { stableId } from './ids.js';
import type { Conversation, Message, Participant, Role } from './pam.js';
import { PAM_SCHEMA_VERSION } from './pam.js';

/** Where the shown thread ends and how it was chosen, kept in the conversation's `raw_metadata`. */
export const SHOWN_LEAF_KEY = 'shown_leaf_id';

/** The PAM id of a provider's conversation (UUID v5 of provider and platform id). */
export function conversationIdOf(provider: string, platformId: string): string {
  return stableId('conversation', provider, platformId);
}

/** Options of {@link buildConversation}. */
export interface BuildOptions {
  report: (diagnostic: Omit<Diagnostic, 'file'>) => void;
  record: string;
  fallbackTime: string | undefined;
}

/**
 * Settles a provider's draft into a PAM conversation: deterministic ids, the full tree as
 * `parent_id`/`children_ids`, the shown thread's leaf, and a time for every message (missing
 * ones take the parent's, then the conversation's, and are flagged and reported).
 */
export function buildConversation(draft: DraftConversation, options: BuildOptions): Conversation {
  const conversationKey = draft.provider.conversation_id ?? '';
  const id = conversationIdOf(draft.provider.name, conversationKey);
  const byKey = new Map<string, DraftMessage>();
  for (const message of draft.messages) {
    if (byKey.has(message.key)) {
      options.report({
        level: 'warning',
        code: 'duplicate-message',
        message: `message ${message.key} appears twice; the first copy is kept`,
        record: options.record,
      });
      continue;
    }
    byKey.set(message.key, message);
  }
  const messages = [...byKey.values()];
  const ids = new Map<string, string>();
  const idOf = (key: string): string => {
    let value = ids.get(key);
    if (value === undefined) {
      value = stableId('message', draft.provider.name, conversationKey, key);
      ids.set(key, value);
    }
    return value;
  };

  // Parents: drop links to messages that are not there, and any link that would close a cycle.
  const parentOf = new Map<string, string | null>();
  for (const message of messages) {
    let parent = message.parentKey;
    if (parent !== null && !byKey.has(parent)) {
      options.report({
        level: 'warning',
        code: 'dangling-parent',
        message: `message ${message.key} points to a parent ${parent} that is not in the conversation; it becomes a root`,
        record: options.record,
      });
      parent = null;
    }
    parentOf.set(message.key, parent);
  }
  for (const message of messages) {
    const seen = new Set<string>([message.key]);
    let at = parentOf.get(message.key) ?? null;
    while (at !== null) {
      if (seen.has(at)) {
        options.report({
          level: 'warning',
          code: 'parent-cycle',
          message: `message ${message.key} is in a cycle of parent links; the cycle is cut there`,
          record: options.record,
        });
        parentOf.set(message.key, null);
        break;
      }
      seen.add(at);
      at = parentOf.get(at) ?? null;
    }
  }

  // Children: the export's order first, then the rest in message order (ChatGPT 2026 exports can
  // omit `children`, so the parent links are the truth).
  const children = new Map<string, string[]>();
  for (const message of messages) children.set(message.key, []);
  for (const message of messages) {
    const list = children.get(message.key) ?? [];
    for (const child of message.childKeys ?? []) {
      if (parentOf.get(child) === message.key && !list.includes(child)) list.push(child);
    }
  }
  for (const message of messages) {
    const parent = parentOf.get(message.key) ?? null;
    if (parent === null) continue;
    const list = children.get(parent);
    if (list && !list.includes(message.key)) list.push(message.key);
  }

  // Times: fill from the parent, then the conversation, in tree order (parents first).
  const conversationCreated =
    draft.createdAt ?? earliest(messages.map((m) => m.createdAt)) ?? draft.updatedAt;
  const created = new Map<string, string>();
  let inferred = 0;
  const roots = messages.filter((m) => (parentOf.get(m.key) ?? null) === null);
  const stack = [...roots].reverse();
  // Tree order (parents before children, branches in the export's order) is the file's order.
  const order: DraftMessage[] = [];
  while (stack.length > 0) {
    const message = stack.pop() as DraftMessage;
    order.push(message);
    let time = message.createdAt;
    if (time === undefined) {
      const parent = parentOf.get(message.key) ?? null;
      time =
        (parent !== null ? created.get(parent) : undefined) ??
        conversationCreated ??
        options.fallbackTime;
      inferred++;
    }
    created.set(message.key, time ?? EPOCH);
    const kids = children.get(message.key) ?? [];
    for (let k = kids.length - 1; k >= 0; k--) {
      const kid = byKey.get(kids[k] as string);
      if (kid) stack.push(kid);
    }
  }
  if (inferred > 0) {
    options.report({
      level: 'info',
      code: 'timestamp-inferred',
      message: `${inferred} message(s) had no time and took the nearest known one`,
      record: options.record,
    });
  }

  const shownLeaf = chooseShownLeaf(draft, messages, children, created, options);
  const out: Message[] = order.map((message) => {
    const parent = parentOf.get(message.key) ?? null;
    const raw = { ...message.raw_metadata };
    if (message.createdAt === undefined) raw.timestamp_inferred = true;
    const result: Message = {
      id: idOf(message.key),
      provider_message_id: message.provider_message_id,
      role: message.role,
      created_at: created.get(message.key) ?? EPOCH,
      parent_id: parent === null ? null : idOf(parent),
      children_ids: (children.get(message.key) ?? []).map(idOf),
      model: message.model,
      is_thought: message.is_thought,
      token_count: null,
      attachments: message.attachments,
      citations: message.citations,
      tool_calls: message.tool_calls,
      raw_metadata: raw,
    };
    if (message.content) result.content = message.content;
    return result;
  });

  const conversationRaw = { ...draft.raw_metadata };
  if (shownLeaf !== undefined) conversationRaw[SHOWN_LEAF_KEY] = idOf(shownLeaf);
  let conversationCreatedAt = conversationCreated;
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

  return {
    schema: 'portable-ai-memory-conversation',
    schema_version: PAM_SCHEMA_VERSION,
    id,
    provider: draft.provider,
    title: draft.title,
    temporal: { created_at: conversationCreatedAt, updated_at: draft.updatedAt ?? null },
    participants: participantsOf(out, draft.assistantName),
    messages: out,
    model: draft.model ?? mostUsedModel(out),
    system_instruction: draft.system_instruction,
    is_archived: draft.is_archived,
    tags: [],
    raw_metadata: conversationRaw,
  };
}

const EPOCH = '1970-01-01T00:00:00.000000Z';

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

function participantsOf(messages: readonly Message[], assistantName: string): Participant[] {
  const roles = new Set<Role>(messages.map((m) => m.role));
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
