import type { BuildMemo, BuildOptions, GrowState, SettledMessages } from './build-memo.js';
import { builtMessage } from './built-messages.js';
import type { Diagnostic } from './diagnostic.js';
import type { DraftConversation, DraftMessage } from './draft.js';
import { reportInferred } from './inferred-times.js';
import type { Message, Role } from './pam.js';
import type { SettledTree } from './settle-tree.js';

/** What a whole build settled, kept for the next build to grow from (none for a shown leaf the export marks). */
export function growState(
  draft: DraftConversation,
  tree: SettledTree,
  settled: SettledMessages & {
    created: Map<string, string>;
    inferred: number;
    told: Omit<Diagnostic, 'file'>[];
  },
): GrowState | undefined {
  if (draft.shownLeafKey !== undefined) return undefined;
  const awaited = new Set<string>();
  for (const message of draft.messages) {
    if (message.parentKey !== null && !tree.byKey.has(message.parentKey))
      awaited.add(message.parentKey);
    for (const child of message.childKeys ?? []) awaited.add(child);
  }
  const roles = new Map<Role, number>();
  for (const message of settled.messages)
    roles.set(message.role, (roles.get(message.role) ?? 0) + 1);
  return {
    drafts: [...draft.messages],
    tree,
    created: settled.created,
    inferred: settled.inferred,
    orderIndex: new Map(tree.order.map((m, i) => [m.key, i])),
    exportIndex: new Map(tree.messages.map((m, i) => [m.key, i])),
    leaves: new Set(
      tree.messages.filter((m) => !tree.children.get(m.key)?.length).map((m) => m.key),
    ),
    shownLeaf: settled.shownLeaf,
    out: [...settled.messages],
    conversationCreated: settled.conversationCreated,
    roles,
    awaited,
    told: settled.told,
  };
}

/**
 * The build of a conversation that grew since the memo's last build, at the cost of what
 * changed, when the change is one a growing log makes: the last messages taken back (a split
 * reply drafted again) and new ones added at the end of the tree order (a reply to the last
 * message, or a new root), each with its time; drafts changed in place (a tool result reaching
 * its call). Anything else (a reply to an earlier message, a repeated key, a missing time, a
 * message another waits for, a message taken back whose time or whose parent's time was
 * inferred) gives undefined: the conversation is settled whole, as `import` settles it, and
 * the result is the same either way.
 */
export function growConversation(
  draft: DraftConversation,
  memo: BuildMemo,
  idOf: (key: string) => string,
  options: BuildOptions,
): SettledMessages | undefined {
  const state = memo.grown;
  // Taken: a change found not to fit below leaves the whole build to settle it again.
  memo.grown = undefined;
  if (!state || draft.shownLeafKey !== undefined || draft.createdAt === undefined) return undefined;
  const drafts = draft.messages;
  let same = 0;
  while (same < drafts.length && same < state.drafts.length && drafts[same] === state.drafts[same])
    same++;
  const moved = new Set<string>();
  if (!takeBack(state, state.drafts.slice(same), moved)) return undefined;
  const from = state.out.length;
  for (const message of drafts.slice(same)) if (!place(state, message, moved)) return undefined;
  const conversationCreated = draft.createdAt;
  // Inferred times hang on the conversation's first time.
  if (conversationCreated !== state.conversationCreated && state.inferred > 0) return undefined;
  for (const diagnostic of state.told) options.report({ ...diagnostic, record: options.record });
  reportInferred(state.inferred, options);
  for (const changed of memo.changed)
    if (state.tree.byKey.get(changed.key) === changed) moved.add(changed.key);
  const replaced = rebuild(state, moved, from, (message) => build(state, message, idOf, memo));
  memo.changed.clear();
  state.shownLeaf = shownLeafOf(state, drafts.slice(same));
  state.drafts = [...drafts];
  state.conversationCreated = conversationCreated;
  const messages = [...state.out];
  memo.change = { previous: memo.lastBuilt ?? [], from, replaced };
  memo.lastBuilt = messages;
  memo.grown = state;
  return {
    messages,
    shownLeaf: state.shownLeaf,
    conversationCreated,
    roles: new Set([...state.roles.keys()]),
  };
}

// Takes back the previous build's last drafts: they must be the end of the tree order.
function takeBack(state: GrowState, removed: readonly DraftMessage[], moved: Set<string>): boolean {
  const { byKey, parentOf, children, order, messages } = state.tree;
  // The last of the messages (no repeated key among them), and the last in the tree order.
  const tail = messages.length - removed.length;
  for (const [i, draft] of removed.entries()) {
    const at = state.orderIndex.get(draft.key);
    if (messages[tail + i] !== draft || at === undefined || at < order.length - removed.length)
      return false;
    // A parent missing or cut off a cycle was told of: it would not be any more.
    if (draft.parentKey !== (parentOf.get(draft.key) ?? null)) return false;
    // A time inferred is counted, and a parent without a time took its first reply's.
    if (draft.createdAt === undefined) return false;
    const parent = parentOf.get(draft.key) ?? null;
    if (parent !== null && byKey.get(parent)?.createdAt === undefined) return false;
  }
  for (let n = 0; n < removed.length; n++) {
    const key = order.pop()?.key ?? '';
    const parent = parentOf.get(key) ?? null;
    if (parent !== null) {
      const kids = children.get(parent) ?? [];
      if (kids.at(-1) !== key) return false;
      // A new array: the built message's memo holds the old one.
      children.set(parent, kids.slice(0, -1));
      moved.add(parent);
      // A message that is a leaf again could now be the shown one: they are all looked at.
      if (kids.length === 1) {
        state.leaves.add(parent);
        state.shownLeaf = undefined;
      }
    }
    // The shown leaf taken back (maybe drafted again, another time): every leaf is looked at.
    if (key === state.shownLeaf) state.shownLeaf = undefined;
    for (const map of [byKey, parentOf, children, state.created, state.orderIndex]) map.delete(key);
    state.exportIndex.delete(key);
    state.leaves.delete(key);
    const built = state.out.pop();
    if (built) count(state.roles, built.role, -1);
  }
  messages.length = tail;
  return true;
}

// Adds a draft at the end of the tree order, where a reply to the last message or a new root goes.
function place(state: GrowState, draft: DraftMessage, moved: Set<string>): boolean {
  const { byKey, parentOf, children, order, messages } = state.tree;
  const { key, parentKey } = draft;
  if (byKey.has(key) || state.awaited.has(key) || draft.childKeys?.length) return false;
  if (draft.createdAt === undefined) return false;
  if (parentKey !== null) {
    if (order.at(-1)?.key !== parentKey) return false;
    // A parent without a time takes its first reply's: it would change.
    if (byKey.get(parentKey)?.createdAt === undefined) return false;
    children.set(parentKey, [...(children.get(parentKey) ?? []), key]);
    state.leaves.delete(parentKey);
    moved.add(parentKey);
  }
  byKey.set(key, draft);
  parentOf.set(key, parentKey);
  children.set(key, []);
  state.orderIndex.set(key, order.length);
  order.push(draft);
  state.exportIndex.set(key, messages.length);
  messages.push(draft);
  state.created.set(key, draft.createdAt);
  state.leaves.add(key);
  return true;
}

// Builds the kept messages whose placement or draft changed, then the new ones; returns the
// indices of the kept ones built again.
function rebuild(
  state: GrowState,
  moved: ReadonlySet<string>,
  from: number,
  make: (draft: DraftMessage) => Message,
): number[] {
  const replaced: number[] = [];
  const { order } = state.tree;
  for (const key of moved) {
    const at = state.orderIndex.get(key);
    const draft = at === undefined ? undefined : order[at];
    const old = at === undefined ? undefined : state.out[at];
    if (at === undefined || at >= from || !draft || !old) continue;
    const message = make(draft);
    if (message === old) continue;
    count(state.roles, old.role, -1);
    count(state.roles, message.role, 1);
    state.out[at] = message;
    replaced.push(at);
  }
  for (let at = from; at < order.length; at++) {
    const draft = order[at];
    if (!draft) continue;
    const message = make(draft);
    count(state.roles, message.role, 1);
    state.out.push(message);
  }
  return replaced.sort((a, b) => a - b);
}

function build(
  state: GrowState,
  draft: DraftMessage,
  idOf: (key: string) => string,
  memo: BuildMemo,
): Message {
  const { key } = draft;
  return builtMessage(
    draft,
    {
      parent: state.tree.parentOf.get(key) ?? null,
      kids: state.tree.children.get(key) ?? [],
      createdAt: state.created.get(key) ?? '',
      idOf,
      has: (other) => state.tree.byKey.has(other),
    },
    memo,
  );
}

// The most recent leaf, the later in the export's order on a tie (as a whole build chooses it):
// the one before against the new leaves, or every leaf when that one is no longer a leaf.
function shownLeafOf(state: GrowState, added: readonly DraftMessage[]): string | undefined {
  const later = (a: string, b: string | undefined): boolean => {
    if (b === undefined) return true;
    const ta = state.created.get(a) ?? '';
    const tb = state.created.get(b) ?? '';
    return (
      ta > tb || (ta === tb && (state.exportIndex.get(a) ?? 0) > (state.exportIndex.get(b) ?? 0))
    );
  };
  let best = state.shownLeaf;
  const candidates =
    best !== undefined && state.leaves.has(best)
      ? added.map((d) => d.key).filter((key) => state.leaves.has(key))
      : [...state.leaves];
  if (best !== undefined && !state.leaves.has(best)) best = undefined;
  for (const key of candidates) if (later(key, best)) best = key;
  return best;
}

function count(counts: Map<Role, number>, role: Role, by: number): void {
  const n = (counts.get(role) ?? 0) + by;
  if (n > 0) counts.set(role, n);
  else counts.delete(role);
}
