import { SHOWN_LEAF_KEY, threadTo, type BuildChange } from '../model/build-conversation.js';
import type { Conversation, Message } from '../model/pam.js';
import { tokenCounts } from '../model/token-usage.js';
import type { GraphEdge, GraphNode } from './graph-batch.js';
import { messageNodeId } from './message-node-id.js';
import type { GrowingPart, MessagePart, ProjectMemo } from './project-memo.js';

/** Whether a message is left off the NEXT chain: hidden context and system messages. */
export function isOffThread(message: Message): boolean {
  return message.raw_metadata.hidden === true || message.role === 'system';
}

/**
 * The messages' part of a projection, made whole; with a memo, kept there for the next
 * projection to go on from (see {@link growMessagePart}).
 */
export function messagePart(
  conversation: Conversation,
  platformId: string,
  memo: ProjectMemo | undefined,
): MessagePart {
  const leaf = conversation.raw_metadata[SHOWN_LEAF_KEY];
  return wholePart(conversation, typeof leaf === 'string' ? leaf : undefined, platformId, memo);
}

function wholePart(
  conversation: Conversation,
  leaf: string | undefined,
  platformId: string,
  memo: ProjectMemo | undefined,
): MessagePart {
  const path = leaf === undefined ? [] : threadTo(conversation, leaf);
  const thread: Message[] = [];
  const threadAt = path.map((message) => {
    if (!isOffThread(message)) thread.push(message);
    return thread.length;
  });
  const { messages } = conversation;
  const part: GrowingPart = {
    thread,
    nodes: [],
    edges: [],
    next: [],
    withToolCalls: 0,
    withBranches: 0,
    roots: 0,
    messages,
    leaf,
    path,
    threadAt,
    threadIndex: new Map(thread.map((m, i) => [m.id, i])),
    // What only growing needs: made for a conversation that will grow.
    pathIndex: new Map(memo ? path.map((m, i) => [m.id, i]) : []),
    indexOf: new Map(memo ? messages.map((m, i) => [m.id, i]) : []),
    byId: new Map(memo ? messages.map((m) => [m.id, m]) : []),
  };
  messages.forEach((message, i) => {
    setPieces(part, i, message, conversation.id, platformId, memo);
    tally(part, message, 1);
  });
  for (let i = 1; i < thread.length; i++) part.next.push(nextEdge(part, i, conversation.id, memo));
  if (memo) memo.part = part;
  return part;
}

/**
 * What growing a message part changed: the pieces (Message nodes, their edges, NEXT edges) it
 * left and made, the messages it left and took (their tool calls and attachments change with
 * them), and the places of the Message nodes among the messages.
 */
export interface PartChange {
  left: { nodes: GraphNode[]; edges: GraphEdge[]; messages: Message[] };
  fresh: { nodes: GraphNode[]; edges: GraphEdge[]; messages: Message[] };
  places: Map<string, number>;
}

/**
 * The message part of a conversation that grew since the memo's last projection, at the cost
 * of what changed, with what changed; undefined when it cannot go on from the last one (the
 * memo's part is then dropped).
 */
export function growMessagePart(
  conversation: Conversation,
  platformId: string,
  memo: ProjectMemo,
  change: BuildChange,
): { part: MessagePart; change: PartChange } | undefined {
  const leaf = conversation.raw_metadata[SHOWN_LEAF_KEY];
  const kept = memo.part;
  memo.part = undefined;
  if (!kept || kept.messages !== change.previous || typeof leaf !== 'string') return undefined;
  const changed: PartChange = {
    left: { nodes: [], edges: [], messages: [] },
    fresh: { nodes: [], edges: [], messages: [] },
    places: new Map(),
  };
  const part = growPart(kept, conversation, change, leaf, platformId, memo, changed);
  if (part) memo.part = part;
  return part && { part, change: changed };
}

// Goes on from the last projection: messages taken back and added, messages built again, and
// the shown path cut where it left the old one and followed to the new leaf.
function growPart(
  part: GrowingPart,
  conversation: Conversation,
  change: BuildChange,
  leaf: string,
  platformId: string,
  memo: ProjectMemo | undefined,
  changed: PartChange,
): GrowingPart | undefined {
  const { messages } = conversation;
  const owner = conversation.id;
  const fresh = [...change.replaced];
  for (let i = change.from; i < messages.length; i++) fresh.push(i);
  const old = part.messages;
  for (let i = change.from; i < old.length; i++) leave(part, i, changed);
  for (const i of change.replaced) if (old[i]) tally(part, old[i], -1);
  part.nodes.length = change.from;
  part.edges.length = change.from;
  for (const i of fresh) {
    const message = messages[i];
    if (!message) return undefined;
    tally(part, message, 1);
    part.byId.set(message.id, message);
    part.indexOf.set(message.id, i);
  }
  part.messages = messages;
  const moved = followPath(
    part,
    leaf,
    fresh.map((i) => messages[i] as Message),
  );
  if (!moved) return undefined;
  for (const i of new Set([...fresh, ...moved])) {
    const before = i < change.from ? { node: part.nodes[i], edges: part.edges[i] } : undefined;
    setPieces(part, i, messages[i] as Message, owner, platformId, memo);
    const node = part.nodes[i] as GraphNode;
    if (before?.node === node) continue;
    if (before?.node) {
      changed.left.nodes.push(before.node);
      for (const item of before.edges ?? []) changed.left.edges.push(item);
      changed.left.messages.push(old[i] as Message);
    }
    changed.fresh.nodes.push(node);
    for (const item of part.edges[i] ?? []) changed.fresh.edges.push(item);
    changed.fresh.messages.push(messages[i] as Message);
    changed.places.set(node.id, i);
  }
  const cutNext = Math.max(0, moved.cut - 1);
  for (const edge of part.next.slice(cutNext)) changed.left.edges.push(edge);
  part.next.length = cutNext;
  for (let i = Math.max(1, moved.cut); i < part.thread.length; i++) {
    const edge = nextEdge(part, i, owner, memo);
    part.next.push(edge);
    changed.fresh.edges.push(edge);
  }
  return part;
}

// A message taken back: its pieces are left, and it is no longer known by id.
function leave(part: GrowingPart, i: number, changed: PartChange): void {
  const message = part.messages[i] as Message;
  const node = part.nodes[i] as GraphNode;
  part.byId.delete(message.id);
  part.indexOf.delete(message.id);
  tally(part, message, -1);
  changed.left.nodes.push(node);
  for (const item of part.edges[i] ?? []) changed.left.edges.push(item);
  changed.left.messages.push(message);
  changed.places.set(node.id, i);
}

/** The indices of messages whose place on the thread changed, and where the thread was cut. */
type Moved = number[] & { cut: number };

// The shown path to the new leaf: the old one up to the last message they share, then the
// new steps. Messages given again (`fresh`) take their place on the kept part of the path.
function followPath(part: GrowingPart, leaf: string, fresh: readonly Message[]): Moved | undefined {
  const steps: Message[] = [];
  let at = part.byId.get(leaf);
  // Up to a message the old path holds as it is (one built again is walked through).
  while (at && part.path[part.pathIndex.get(at.id) ?? -1] !== at) {
    steps.push(at);
    if (steps.length > part.messages.length) return undefined;
    at = at.parent_id === null ? undefined : part.byId.get(at.parent_id);
  }
  const cutPath = at ? (part.pathIndex.get(at.id) ?? -1) + 1 : 0;
  const cut = cutPath > 0 ? (part.threadAt[cutPath - 1] ?? 0) : 0;
  const changed = new Set<string>();
  for (const message of part.path.slice(cutPath)) part.pathIndex.delete(message.id);
  for (const message of part.thread.slice(cut)) {
    part.threadIndex.delete(message.id);
    changed.add(message.id);
  }
  part.path.length = cutPath;
  part.threadAt.length = cutPath;
  part.thread.length = cut;
  for (const message of fresh) {
    const p = part.pathIndex.get(message.id);
    const t = part.threadIndex.get(message.id);
    if (p !== undefined) part.path[p] = message;
    if (t !== undefined) part.thread[t] = message;
  }
  for (const message of steps.reverse()) {
    part.pathIndex.set(message.id, part.path.length);
    part.path.push(message);
    if (!isOffThread(message)) {
      part.threadIndex.set(message.id, part.thread.length);
      part.thread.push(message);
      changed.add(message.id);
    }
    part.threadAt.push(part.thread.length);
  }
  part.leaf = leaf;
  const moved = [...changed].flatMap((id) => {
    const i = part.indexOf.get(id);
    return i === undefined ? [] : [i];
  });
  return Object.assign(moved, { cut });
}

function tally(part: MessagePart, message: Message, by: number): void {
  if (message.tool_calls.length > 0) part.withToolCalls += by;
  if (message.children_ids.length > 1) part.withBranches += by;
  if (isChatRoot(message)) part.roots += by;
}

/**
 * A turn of the chat with no parent. A Claude.ai conversation whose first message was edited
 * has one for each version, and no message with two children to say so; a system message
 * with no parent (a ChatGPT root, a coding session's compaction) forks nothing.
 */
export function isChatRoot(message: Message): boolean {
  return message.parent_id === null && message.role !== 'system';
}

// A message's node and edges, given again when the memo has them for this object and place.
function setPieces(
  part: GrowingPart,
  i: number,
  message: Message,
  owner: string,
  platformId: string,
  memo: ProjectMemo | undefined,
): void {
  const at = part.threadIndex.get(message.id);
  const known = memo?.messages.get(message);
  if (known && known.at === at) {
    part.nodes[i] = known.node;
    part.edges[i] = known.edges;
    return;
  }
  const id = messageNodeId(owner, message.id);
  const node: GraphNode = {
    label: 'Message',
    id,
    properties: {
      name: `msg-${(message.provider_message_id ?? message.id).slice(0, 12)}`,
      role: message.role,
      content: message.content?.text ?? '',
      created_at: message.created_at,
      conversation_id: platformId,
      has_tool_calls: message.tool_calls.length > 0,
      has_tool_results:
        message.role === 'tool' || message.tool_calls.some((call) => call.output !== null),
      model_slug: message.model,
      provider_message_id: message.provider_message_id,
      parent_id: message.parent_id === null ? null : messageNodeId(owner, message.parent_id),
      position: at ?? null,
      on_shown_thread: at !== undefined,
      is_thought: message.is_thought,
      hidden: message.raw_metadata.hidden === true,
      ...citedUrls(message),
      ...tokenCounts(message.raw_metadata),
    },
  };
  const edges: GraphEdge[] = [{ kind: 'HAS_MESSAGE', from: owner, to: id }];
  if (message.parent_id !== null)
    edges.push({ kind: 'REPLY_TO', from: id, to: messageNodeId(owner, message.parent_id) });
  memo?.messages.set(message, { at, node, edges });
  part.nodes[i] = node;
  part.edges[i] = edges;
}

// The NEXT edge into the thread's i-th message, given again when the memo has it.
function nextEdge(
  part: MessagePart,
  i: number,
  owner: string,
  memo: ProjectMemo | undefined,
): GraphEdge {
  const from = part.thread[i - 1] as Message;
  const to = part.thread[i] as Message;
  const known = memo?.next.get(to);
  if (known?.from === from) return known.edge;
  const edge: GraphEdge = {
    kind: 'NEXT',
    from: messageNodeId(owner, from.id),
    to: messageNodeId(owner, to.id),
  };
  memo?.next.set(to, { from, edge });
  return edge;
}

// The URLs a message cites, one a line (a graph property is a scalar; a URL holds no newline).
function citedUrls(message: Message): { citations?: string } {
  const urls = message.citations.flatMap((c) => (c.url !== null ? [c.url] : []));
  return urls.length > 0 ? { citations: urls.join('\n') } : {};
}
