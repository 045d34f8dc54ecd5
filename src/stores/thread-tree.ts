import { QueryError, type Store, type ThreadMessage } from './store.js';

/** A stored message before its depth in the tree is known. */
export type TreeRow = Omit<ThreadMessage, 'depth'>;

/**
 * Every branch in tree order: each message after its parent, siblings in stored order; a
 * message whose parent is missing is a root. Stores give the rows in stored order.
 */
export function treeOrder(rows: readonly TreeRow[]): ThreadMessage[] {
  const children = new Map<string | null, TreeRow[]>();
  const ids = new Set(rows.map((r) => r.id));
  for (const row of rows) {
    const parent = row.parentId !== null && ids.has(row.parentId) ? row.parentId : null;
    const siblings = children.get(parent);
    if (siblings) siblings.push(row);
    else children.set(parent, [row]);
  }
  const out: ThreadMessage[] = [];
  const stack: [TreeRow, number][] = (children.get(null) ?? [])
    .map((r): [TreeRow, number] => [r, 0])
    .reverse();
  while (stack.length > 0) {
    const [row, depth] = stack.pop() as [TreeRow, number];
    out.push({ ...row, depth });
    for (const child of [...(children.get(row.id) ?? [])].reverse()) stack.push([child, depth + 1]);
  }
  return out;
}

/**
 * A message off the shown thread with up to `before` of its ancestors and `after` of its first
 * descendants (following the first child at each step), from every branch in tree order.
 */
export function branchContext(
  all: readonly ThreadMessage[],
  messageId: string,
  before: number,
  after: number,
): ThreadMessage[] {
  const byId = new Map(all.map((m) => [m.id, m]));
  const leading: ThreadMessage[] = [];
  let at = byId.get(messageId)?.parentId ?? null;
  while (at !== null && leading.length < before) {
    const message = byId.get(at);
    if (!message) break;
    leading.unshift(message);
    at = message.parentId;
  }
  const firstChild = new Map<string, ThreadMessage>();
  for (const message of all) {
    if (message.parentId !== null && !firstChild.has(message.parentId))
      firstChild.set(message.parentId, message);
  }
  const following: ThreadMessage[] = [];
  let current = messageId;
  while (following.length < after) {
    const child = firstChild.get(current);
    if (!child) break;
    following.push(child);
    current = child.id;
  }
  const self = byId.get(messageId);
  return [...leading, ...(self ? [self] : []), ...following];
}

/**
 * `Store.messageContext` from where a store found the message: on the shown thread, a slice of
 * it around the message's position; off it, {@link branchContext}.
 */
export async function messageContextAt(
  store: Pick<Store, 'thread'>,
  found: { owner: string; position: number | null } | undefined,
  messageId: string,
  before: number,
  after: number,
): Promise<ThreadMessage[]> {
  if (!found) throw new QueryError(`no message with id ${messageId}`);
  if (found.position !== null) {
    const thread = await store.thread(found.owner);
    return thread.slice(Math.max(0, found.position - before), found.position + after + 1);
  }
  return branchContext(
    await store.thread(found.owner, { allBranches: true }),
    messageId,
    before,
    after,
  );
}

/**
 * The branch through a message, from every branch in tree order: its ancestors from the root,
 * the message, and after it the child on the shown thread at each step (else the first child),
 * so a message on the shown thread gives the shown thread.
 */
export function branchThrough(all: readonly ThreadMessage[], messageId: string): ThreadMessage[] {
  const byId = new Map(all.map((m) => [m.id, m]));
  const self = byId.get(messageId);
  if (!self) return [];
  const leading: ThreadMessage[] = [];
  const seen = new Set([messageId]);
  for (let at = self.parentId; at !== null && !seen.has(at);) {
    const message = byId.get(at);
    if (!message) break;
    seen.add(at);
    leading.unshift(message);
    at = message.parentId;
  }
  const children = new Map<string, ThreadMessage[]>();
  for (const message of all)
    if (message.parentId !== null) {
      const siblings = children.get(message.parentId);
      if (siblings) siblings.push(message);
      else children.set(message.parentId, [message]);
    }
  const following: ThreadMessage[] = [];
  for (let at = self.id; ;) {
    const next = children.get(at) ?? [];
    const child = next.find((m) => m.onShownThread) ?? next[0];
    if (!child || seen.has(child.id)) break;
    seen.add(child.id);
    following.push(child);
    at = child.id;
  }
  return [...leading, self, ...following];
}

/**
 * Indentation levels for every branch shown at once: a message stays at its parent's level
 * when it is the parent's first child, and an alternative branch goes one level in, so a long
 * linear branch stays at one level however deep it goes.
 */
export function forkLevels(all: readonly ThreadMessage[]): Map<string, number> {
  const levels = new Map<string, number>();
  const firstChild = new Map<string, string>();
  for (const message of all) {
    const parent = message.parentId;
    const parentLevel = parent === null ? undefined : levels.get(parent);
    if (parent === null || parentLevel === undefined) {
      levels.set(message.id, 0);
      continue;
    }
    const first = firstChild.get(parent);
    if (first === undefined) firstChild.set(parent, message.id);
    levels.set(message.id, first === undefined ? parentLevel : parentLevel + 1);
  }
  return levels;
}
