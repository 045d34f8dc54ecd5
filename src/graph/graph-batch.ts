import type { EdgeKind, Label } from './schema.js';

/** A property value as the graph stores it. */
export type PropertyValue = string | number | boolean | null;

/** A node: a label, a unique id, and the label's properties. */
export interface GraphNode {
  label: Label;
  id: string;
  properties: Record<string, PropertyValue>;
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
