import type { GraphBatch, GraphEdge, GraphNode } from './graph-batch.js';
import { SHARED_LABELS } from './schema.js';

/**
 * How a conversation's graph changed since a batch a store holds: that batch's nodes and edges
 * not in the new one (`left`), and the new one's not in it (`fresh`); a node id in both is a
 * node whose properties may have changed. A growing conversation's projection makes it at the
 * cost of what changed (see `projectGrowth`); {@link deltaOf} makes it from two whole batches.
 */
export interface GraphDelta {
  owner: string;
  left: { nodes: GraphNode[]; edges: GraphEdge[] };
  fresh: { nodes: GraphNode[]; edges: GraphEdge[] };
  /** The place among the conversation's messages of each Message node in `left` and `fresh`. */
  places: Map<string, number>;
}

/**
 * The delta between two batches of a conversation. A grown conversation's projection gives
 * unchanged nodes and edges again as the same objects (see `ProjectMemo`): only the others
 * are in the delta.
 */
export function deltaOf(previous: GraphBatch, next: GraphBatch): GraphDelta {
  const places = new Map<string, number>();
  const nodes = changes(previous.nodes, next.nodes);
  for (const batch of [previous, next]) {
    let place = 0;
    for (const node of batch.nodes) if (node.label === 'Message') places.set(node.id, place++);
  }
  const edges = changes(previous.edges, next.edges);
  return {
    owner: next.owner,
    left: { nodes: nodes.left, edges: edges.left },
    fresh: { nodes: nodes.fresh, edges: edges.fresh },
    places,
  };
}

/**
 * Whether a delta takes a node of the conversation's own away (not additive: a rewritten log).
 * Shared nodes (a file, a project) stay when a conversation lets go of them.
 */
export function removesNode(delta: GraphDelta): boolean {
  const kept = new Set(delta.fresh.nodes.map((node) => node.id));
  return delta.left.nodes.some((node) => !SHARED_LABELS.has(node.label) && !kept.has(node.id));
}

/** What of `previous` is not in `next` (as the same object), and what of `next` is new. */
function changes<T extends object>(
  previous: readonly T[],
  next: readonly T[],
): { left: T[]; fresh: T[] } {
  const kept = new Set(next);
  const had = new Set(previous);
  return {
    left: previous.filter((item) => !kept.has(item)),
    fresh: next.filter((item) => !had.has(item)),
  };
}

/** Edges by kind, then source, then target: no key strings made for tens of thousands of edges. */
export type EdgeIndex = Map<string, Map<string, Set<string>>>;

export function edgeIndex(edges: readonly GraphEdge[]): EdgeIndex {
  const index: EdgeIndex = new Map();
  for (const edge of edges) {
    const bySource = index.get(edge.kind) ?? new Map<string, Set<string>>();
    index.set(edge.kind, bySource);
    const targets = bySource.get(edge.from) ?? new Set<string>();
    bySource.set(edge.from, targets);
    targets.add(edge.to);
  }
  return index;
}

export function hasEdge(index: EdgeIndex, edge: GraphEdge): boolean {
  return index.get(edge.kind)?.get(edge.from)?.has(edge.to) === true;
}

/** Whether two nodes have the same label and properties. */
export function sameNode(a: GraphNode, b: GraphNode): boolean {
  if (a.label !== b.label) return false;
  const keys = Object.keys(b.properties);
  if (keys.length !== Object.keys(a.properties).length) return false;
  return keys.every((key) => a.properties[key] === b.properties[key]);
}
