import type { Message } from '../model/pam.js';
import type { GraphEdge, GraphNode } from './graph-batch.js';

/** One tool call's projection: its node and edges, and the files it read or changed. */
export interface CallPieces {
  node: GraphNode;
  edges: GraphEdge[];
  files: { node: GraphNode; edge: GraphEdge }[];
}

/**
 * What projecting a growing conversation keeps for the next time, by message object (a
 * followed session's unchanged messages are the same objects from one build to the next, see
 * `BuildMemo`): their nodes and edges are given again, not made again, so a store patch can
 * tell them unchanged by identity.
 */
export interface ProjectMemo {
  /** A message's node and its HAS_MESSAGE and REPLY_TO edges, at its place on the thread. */
  messages: WeakMap<Message, { at: number | undefined; node: GraphNode; edges: GraphEdge[] }>;
  /** The NEXT edge into a message, from the message before it on the thread. */
  next: WeakMap<Message, { from: Message; edge: GraphEdge }>;
  /** A message's paragraph of the Document's text. */
  lines: WeakMap<Message, string>;
  calls: WeakMap<Message, CallPieces[]>;
  /**
   * The Document as last made: a growing session's Document (its whole thread's text) is made
   * again only when the projection is asked to settle, not at every append.
   */
  document: GraphNode | undefined;
  /** The messages' part of the last projection, to go on from (see `messagePart`). */
  part: GrowingPart | undefined;
  /** The last projection's Conversation node, IMPORTED edge and workspace (see `projectGrowth`). */
  shell:
    | {
        conversation: GraphNode;
        imported: GraphEdge | undefined;
        workspace: { nodes: GraphNode[]; edges: GraphEdge[] };
      }
    | undefined;
}

/** A memo for the first projection of a conversation that will grow. */
export function emptyProjectMemo(): ProjectMemo {
  return {
    messages: new WeakMap(),
    next: new WeakMap(),
    lines: new WeakMap(),
    calls: new WeakMap(),
    document: undefined,
    part: undefined,
    shell: undefined,
  };
}

/** What of a projection follows the messages one by one. */
export interface MessagePart {
  /** The shown thread, hidden context and system messages left out. */
  thread: Message[];
  /** Each message's node and its HAS_MESSAGE and REPLY_TO edges, in the messages' order. */
  nodes: GraphNode[];
  edges: GraphEdge[][];
  /** NEXT along the thread. */
  next: GraphEdge[];
  withToolCalls: number;
  withBranches: number;
  /**
   * Messages with no parent that are turns of the chat (not system text): two or more are a
   * fork at the root (a Claude.ai conversation whose first message was edited).
   */
  roots: number;
}

/** A message part kept to go on from when the conversation grows (see `BuildChange`). */
export interface GrowingPart extends MessagePart {
  messages: Message[];
  leaf: string | undefined;
  /** The shown path whole (off-thread messages too), and the thread's length at each step. */
  path: Message[];
  threadAt: number[];
  pathIndex: Map<string, number>;
  threadIndex: Map<string, number>;
  indexOf: Map<string, number>;
  byId: Map<string, Message>;
}
