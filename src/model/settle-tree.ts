import type { Diagnostic } from './diagnostic.js';
import type { DraftMessage } from './draft.js';

/** A conversation's tree, settled: every parent link points inside it and none closes a cycle. */
export interface SettledTree {
  /** The messages, first copy of each key, in the export's order. */
  messages: DraftMessage[];
  byKey: Map<string, DraftMessage>;
  parentOf: Map<string, string | null>;
  /** Children in the export's order first, then the rest in message order. */
  children: Map<string, string[]>;
  /** Parents before children, branches in the export's order: the file's order. */
  order: DraftMessage[];
}

type Report = (diagnostic: Omit<Diagnostic, 'file'>) => void;

/**
 * Settles the links of a conversation's messages in time linear in their number: duplicates
 * dropped, dangling parents made roots, cycles cut, children listed, and tree order. Every walk
 * is iterative, so a chain of any depth fits on the stack.
 */
export function settleTree(drafts: readonly DraftMessage[], report: Report): SettledTree {
  const byKey = new Map<string, DraftMessage>();
  for (const message of drafts) {
    if (byKey.has(message.key)) {
      report({
        level: 'warning',
        code: 'duplicate-message',
        message: `message ${message.key} appears twice; the first copy is kept`,
      });
      continue;
    }
    byKey.set(message.key, message);
  }
  const messages = [...byKey.values()];
  const parentOf = new Map<string, string | null>();
  for (const message of messages) {
    let parent = message.parentKey;
    if (parent !== null && !byKey.has(parent)) {
      report({
        level: 'warning',
        code: 'dangling-parent',
        message: `message ${message.key} points to a parent ${parent} that is not in the conversation; it becomes a root`,
      });
      parent = null;
    }
    parentOf.set(message.key, parent);
  }
  cutParentCycles(
    messages.map((m) => m.key),
    parentOf,
    (at) => {
      report({
        level: 'warning',
        code: 'parent-cycle',
        message: `message ${at} is in a cycle of parent links; the cycle is cut there`,
      });
    },
  );
  const children = childrenOf(messages, parentOf);
  return {
    messages,
    byKey,
    parentOf,
    children,
    order: treeOrder(messages, byKey, parentOf, children),
  };
}

/**
 * Cuts every cycle of parent links, each message walked once: a walk climbs until it meets a
 * root or a message already settled; meeting a message of its own path closes a cycle, cut at
 * the link that closed it (that message becomes a root, and `onCut` is told its key).
 */
export function cutParentCycles(
  keys: Iterable<string>,
  parentOf: Map<string, string | null>,
  onCut: (key: string) => void,
): void {
  // 1: on the current path; 2: settled (leads to a root).
  const state = new Map<string, 1 | 2>();
  const path: string[] = [];
  for (const key of keys) {
    let at: string | null = key;
    while (at !== null && state.get(at) === undefined) {
      state.set(at, 1);
      path.push(at);
      const parent: string | null = parentOf.get(at) ?? null;
      if (parent !== null && state.get(parent) === 1) {
        onCut(at);
        parentOf.set(at, null);
        break;
      }
      at = parent;
    }
    for (const settled of path) state.set(settled, 2);
    path.length = 0;
  }
}

function childrenOf(
  messages: readonly DraftMessage[],
  parentOf: ReadonlyMap<string, string | null>,
): Map<string, string[]> {
  // ChatGPT 2026 exports can omit `children`, so the parent links are the truth. A child has
  // one parent, so one set of placed children keeps a 200k-wide fork linear.
  const placed = new Set<string>();
  const children = new Map<string, string[]>();
  for (const message of messages) children.set(message.key, []);
  const add = (parent: string, child: string): void => {
    if (placed.has(child)) return;
    placed.add(child);
    children.get(parent)?.push(child);
  };
  for (const message of messages) {
    for (const child of message.childKeys ?? [])
      if (parentOf.get(child) === message.key) add(message.key, child);
  }
  for (const message of messages) {
    const parent = parentOf.get(message.key) ?? null;
    if (parent !== null) add(parent, message.key);
  }
  return children;
}

function treeOrder(
  messages: readonly DraftMessage[],
  byKey: ReadonlyMap<string, DraftMessage>,
  parentOf: ReadonlyMap<string, string | null>,
  children: ReadonlyMap<string, readonly string[]>,
): DraftMessage[] {
  const stack = messages.filter((m) => (parentOf.get(m.key) ?? null) === null).reverse();
  const order: DraftMessage[] = [];
  for (let message = stack.pop(); message !== undefined; message = stack.pop()) {
    order.push(message);
    const kids = children.get(message.key) ?? [];
    for (let k = kids.length - 1; k >= 0; k--) {
      const kid = byKey.get(kids[k] ?? '');
      if (kid) stack.push(kid);
    }
  }
  return order;
}
