import type { EdgeKind, Label } from './schema.js';

/** A property value as the graph stores it. */
export type PropertyValue = string | number | boolean | null;

/** A node: a label, a unique id, and the label's properties. */
export interface GraphNode {
  label: Label;
  id: string;
  properties: Record<string, PropertyValue>;
  /**
   * A Message's pairs of common words as the SQLite store indexes them, made from its
   * `content` by the conversion worker (notePairs in src/stores/pairs-of-text.ts) to spare the
   * writer's thread; absent, the writer makes them. No property: not written as one.
   */
  pairs?: string;
}

/** A relationship between two node ids. */
export interface GraphEdge {
  kind: EdgeKind;
  from: string;
  to: string;
}

/** Everything one conversation puts in the graph; a store replaces the conversation's previous batch with it. */
export interface GraphBatch {
  /** The Conversation node's id, which owns every other node and edge here. */
  owner: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
}
