import type { GraphView } from './api.js';

type GraphNode = GraphView['nodes'][number];
type GraphEdge = GraphView['edges'][number];

/** The kinds a node is drawn as: a message by its role, anything else by its label. */
export const KINDS: { kind: string; name: string; color: string }[] = [
  { kind: 'user', name: 'User message', color: '#2f6fd6' },
  { kind: 'assistant', name: 'Assistant message', color: '#0c9d6e' },
  { kind: 'tool', name: 'Tool message', color: '#d9480f' },
  { kind: 'system', name: 'System message', color: '#868e96' },
  { kind: 'Conversation', name: 'Conversation', color: '#7048e8' },
  { kind: 'ToolCall', name: 'Tool call', color: '#f59f00' },
  { kind: 'Attachment', name: 'Attachment', color: '#1098ad' },
  { kind: 'Document', name: 'Document', color: '#66a80f' },
  { kind: 'trace', name: 'Trace or step', color: '#be4bdb' },
  { kind: 'other', name: 'Project, file, import…', color: '#adb5bd' },
];

const TRACES = new Set(['DecisionTrace', 'TraceStep']);

/** The kind a node is drawn as (one of {@link KINDS}). */
export function kindOf(node: GraphNode): string {
  if (node.label === 'Message') {
    const role = String(node.properties.role);
    return ['user', 'assistant', 'tool', 'system'].includes(role) ? role : 'system';
  }
  if (TRACES.has(node.label)) return 'trace';
  return KINDS.some((k) => k.kind === node.label) ? node.label : 'other';
}

/** A short label: the role (or kind) and the first words, cut at a word. */
export function shortLabel(node: GraphNode, size = 26): string {
  const caption = node.caption.replace(/\s+/g, ' ').trim();
  if (caption.length <= size) return caption;
  const cut = caption.slice(0, size);
  const space = cut.lastIndexOf(' ');
  return `${(space > size / 2 ? cut.slice(0, space) : cut).replace(/[\s:,.;…]+$/, '')}…`;
}

/** A drawn element: its data and its classes. */
export interface TreeElement {
  group: 'nodes' | 'edges';
  data: Record<string, string>;
  classes: string;
}

// A flag property as the stores hand it (a boolean, or the text the embedded store keeps).
const flag = (value: unknown): boolean => value === true || value === 'True' || value === 'true';

/**
 * The conversation as the tree it is: each reply drawn below the message it answers (REPLY_TO
 * turned parent to child), the conversation over its first messages only, the shown thread
 * marked, a message with several replies marked as a fork and the branches not shown dimmed.
 * HAS_MESSAGE to later messages and NEXT repeat what the reply edges say: kept, but not drawn.
 */
export function treeElements(graph: GraphView): TreeElement[] {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const children = new Map<string, number>();
  const hasParent = new Set<string>();
  for (const e of graph.edges)
    if (e.kind === 'REPLY_TO' && byId.has(e.to)) {
      children.set(e.to, (children.get(e.to) ?? 0) + 1);
      hasParent.add(e.from);
    }
  const message = (id: string): GraphNode | undefined =>
    byId.get(id)?.label === 'Message' ? byId.get(id) : undefined;
  const onThread = (id: string): boolean => flag(message(id)?.properties.on_shown_thread);
  const nodes = graph.nodes.map((n): TreeElement => {
    const classes = [`kind-${kindOf(n)}`];
    if (n.id === graph.focus) classes.push('focus');
    if (n.label === 'Message') {
      if (onThread(n.id)) classes.push('thread');
      else classes.push('alternative');
      if ((children.get(n.id) ?? 0) > 1) classes.push('fork');
    }
    return {
      group: 'nodes',
      data: { id: n.id, label: n.label, kind: kindOf(n), caption: shortLabel(n) },
      classes: classes.join(' '),
    };
  });
  const edges = graph.edges.map((e: GraphEdge): TreeElement => {
    const reply = e.kind === 'REPLY_TO';
    const implied =
      e.kind === 'NEXT' || (e.kind === 'HAS_MESSAGE' && message(e.to) && hasParent.has(e.to));
    const classes = [];
    if (implied) classes.push('implied');
    if (reply) classes.push(onThread(e.from) && onThread(e.to) ? 'thread' : 'alternative');
    return {
      group: 'edges',
      // A reply is drawn from the message it answers down to it.
      data: {
        id: e.id,
        source: reply ? e.to : e.from,
        target: reply ? e.from : e.to,
        kind: e.kind,
      },
      classes: classes.join(' '),
    };
  });
  return [...nodes, ...edges];
}
