import type { Conversation, Message, Participant, Role } from './pam.js';

/** What merging the stored copy of a conversation with one arriving gave. */
export interface MergedCopies {
  conversation: Conversation;
  /** The copy that leads (title, shown thread, metadata, its version of shared messages). */
  leading: 'stored' | 'arriving';
  /** Messages the result holds that only the other copy had. */
  added: number;
  /** Messages of the leading copy given the citations only the other copy had. */
  filled: number;
}

/**
 * Merges two copies of one conversation so that neither loses what the other knows: the copy
 * with the later update time leads (on a tie the one with more messages, then the arriving one,
 * so that an export read again repairs a damaged copy), and where every message
 * of both has a provider id its messages are joined by id, a message only the other copy had
 * kept with its parent (the older copy's parent when the leading one lacks it). Without stable
 * ids (ids made from positions) a join could hold one message twice, so the leading copy is
 * kept whole. Merging the result with either copy again gives the result.
 */
export function mergeCopies(stored: Conversation, arriving: Conversation): MergedCopies {
  const storedLeads = leads(stored, arriving);
  const lead = storedLeads ? stored : arriving;
  const other = storedLeads ? arriving : stored;
  const leading = storedLeads ? 'stored' : 'arriving';
  if (!hasStableIds(lead) || !hasStableIds(other))
    return { conversation: lead, leading, added: 0, filled: 0 };
  const otherById = new Map(other.messages.map((m) => [m.id, m]));
  // A message both copies hold keeps the leading copy's version, and the other's sources when
  // it has none (Perplexity's account export has no sources; a thread exporter's copy has).
  let filled = 0;
  const leadMessages = lead.messages.map((message) => {
    const cited = otherById.get(message.id)?.citations ?? [];
    if (message.citations.length > 0 || cited.length === 0) return message;
    filled++;
    return { ...message, citations: cited };
  });
  const led = filled === 0 ? lead : { ...lead, messages: leadMessages };
  const leadById = new Map(led.messages.map((m) => [m.id, m]));
  // The same platform message under another id (a reader that now names its messages
  // otherwise, as Perplexity's turns are since they are known by their question) is not extra.
  const leadSame = new Set(led.messages.map(sameMessage));
  const extra = other.messages.filter((m) => !leadById.has(m.id) && !leadSame.has(sameMessage(m)));
  if (extra.length === 0) return { conversation: led, leading, added: 0, filled };
  const messages = [...led.messages, ...extra];
  const tree = joinedTree(messages, leadById, otherById);
  return {
    conversation: {
      ...led,
      participants: withRoles(led.participants, messages),
      messages: tree,
    },
    leading,
    added: extra.length,
    filled,
  };
}

// A message as the platform knows it: its id there, its role, and whether it is a thought.
function sameMessage(message: Message): string {
  return `${message.provider_message_id ?? ''}\u0000${message.role}\u0000${String(message.is_thought)}`;
}

/** Whether every message has an id from the provider (so its PAM id is the same in every copy). */
export function hasStableIds(conversation: Conversation): boolean {
  return conversation.messages.every((m) => m.provider_message_id !== null);
}

/** When a conversation was last updated (its creation time when it has no update time). */
export function updatedOf(conversation: Conversation): string {
  return conversation.temporal.updated_at ?? conversation.temporal.created_at;
}

// The stored copy leads only when it knows strictly more recent things: on a full tie the
// arriving copy leads, so reading an export again repairs a bundle file damaged since.
function leads(stored: Conversation, arriving: Conversation): boolean {
  const [ts, ta] = [updatedOf(stored), updatedOf(arriving)];
  if (ts !== ta) return ts > ta;
  return stored.messages.length > arriving.messages.length;
}

/**
 * The joined messages as a tree: each message's parent from the leading copy, else from the
 * other (when it is in the join), cycles cut; children in the leading copy's order, then the
 * other's; parents before children, as a conversation file orders them.
 */
function joinedTree(
  messages: readonly Message[],
  leadById: ReadonlyMap<string, Message>,
  otherById: ReadonlyMap<string, Message>,
): Message[] {
  const byId = new Map(messages.map((m) => [m.id, m]));
  const parentOf = new Map<string, string | null>();
  const relinked = new Set<string>();
  for (const message of messages) {
    const lead = leadById.get(message.id);
    const other = otherById.get(message.id);
    // A parent one copy lacked (kept aside as `missing_parent_id`) that the join now holds.
    const aside = [lead, other]
      .map((m) => m?.raw_metadata.missing_parent_id)
      .find((id): id is string => typeof id === 'string' && byId.has(id));
    const parent =
      [lead?.parent_id, other?.parent_id].find(
        (id): id is string => typeof id === 'string' && byId.has(id),
      ) ?? aside;
    if (parent !== undefined && parent === aside) relinked.add(message.id);
    parentOf.set(message.id, parent === undefined || parent === message.id ? null : parent);
  }
  cutCycles(messages, parentOf);
  const children = new Map<string, string[]>(messages.map((m) => [m.id, []]));
  const placed = new Set<string>();
  const place = (parent: string, child: string): void => {
    if (placed.has(child) || parentOf.get(child) !== parent) return;
    placed.add(child);
    children.get(parent)?.push(child);
  };
  for (const message of messages) {
    for (const child of leadById.get(message.id)?.children_ids ?? []) place(message.id, child);
    for (const child of otherById.get(message.id)?.children_ids ?? []) place(message.id, child);
  }
  for (const message of messages) {
    const parent = parentOf.get(message.id) ?? null;
    if (parent !== null) place(parent, message.id);
  }
  const order: Message[] = [];
  const stack = messages.filter((m) => (parentOf.get(m.id) ?? null) === null).reverse();
  for (let at = stack.pop(); at !== undefined; at = stack.pop()) {
    const kids = children.get(at.id) ?? [];
    const parent = parentOf.get(at.id) ?? null;
    const joined = { ...at, parent_id: parent, children_ids: kids };
    if (relinked.has(at.id) && parent !== null) {
      const { missing_parent_id: _found, ...raw } = at.raw_metadata;
      joined.raw_metadata = raw;
    }
    order.push(joined);
    for (let k = kids.length - 1; k >= 0; k--) {
      const kid = byId.get(kids[k] ?? '');
      if (kid) stack.push(kid);
    }
  }
  return order;
}

// Parent links from two copies can close a cycle (hostile or reshuffled exports): cut where it closes.
function cutCycles(messages: readonly Message[], parentOf: Map<string, string | null>): void {
  const state = new Map<string, 1 | 2>();
  const path: string[] = [];
  for (const message of messages) {
    let at: string | null = message.id;
    while (at !== null && state.get(at) === undefined) {
      state.set(at, 1);
      path.push(at);
      const parent: string | null = parentOf.get(at) ?? null;
      if (parent !== null && state.get(parent) === 1) {
        parentOf.set(at, null);
        break;
      }
      at = parent;
    }
    for (const id of path) state.set(id, 2);
    path.length = 0;
  }
}

const ROLE_ORDER: readonly Role[] = ['user', 'assistant', 'system', 'tool'];

function withRoles(
  participants: readonly Participant[],
  messages: readonly Message[],
): Participant[] {
  const present = new Set(messages.map((m) => m.role));
  const listed = new Set(participants.map((p) => p.role));
  return [
    ...participants,
    ...ROLE_ORDER.filter((role) => present.has(role) && !listed.has(role)).map((role) => ({
      role,
    })),
  ];
}
