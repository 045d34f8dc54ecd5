import type { BuildChange } from '../model/build-conversation.js';
import type { Conversation, Message } from '../model/pam.js';
import type { GraphEdge, GraphNode } from './graph-batch.js';
import type { GraphDelta } from './graph-delta.js';
import { messageNodeId } from './message-node-id.js';
import { addMessageAttachments } from './project-attachments.js';
import type { ProjectMemo } from './project-memo.js';
import { growMessagePart } from './project-messages.js';
import { callPiecesOf } from './project-tool-calls.js';
import { addWorkspace, conversationNode, documentNode, type ProjectOptions } from './project.js';

type Side = { nodes: GraphNode[]; edges: GraphEdge[] };

/**
 * What a grown conversation changes in its graph since the memo's last projection, at the
 * cost of what changed (see `BuildChange`): the Message nodes and edges of messages taken
 * back, built again, added or moved on the shown thread, their tool calls and attachments,
 * the NEXT edges past where the thread changed, the Conversation node, the workspace and the
 * IMPORTED edge. The Document stays as last settled (see {@link settleDocument}). Undefined
 * when it cannot go on from the last projection, or in deep mode (its trace numbers every
 * step of the conversation): the conversation is then projected whole.
 */
export function projectGrowth(
  conversation: Conversation,
  options: ProjectOptions & { memo: ProjectMemo; change: BuildChange },
): GraphDelta | undefined {
  const { memo } = options;
  const shell = memo.shell;
  const platformId = conversation.provider.conversation_id ?? conversation.id;
  if (options.deep || !shell) {
    memo.part = undefined;
    return undefined;
  }
  const grown = growMessagePart(conversation, platformId, memo, options.change);
  if (!grown) return undefined;
  const { part, change } = grown;
  const owner = conversation.id;
  const left: Side = { nodes: change.left.nodes, edges: change.left.edges };
  const fresh: Side = { nodes: change.fresh.nodes, edges: change.fresh.edges };
  const name = conversation.title ?? `conv-${platformId}`;
  const node = conversationNode(conversation, part, options, platformId, name);
  left.nodes.push(shell.conversation);
  fresh.nodes.push(node);
  const nodeId = (message: { id: string }): string => messageNodeId(owner, message.id);
  const pieces = (messages: readonly Message[], side: Side): void => {
    for (const message of messages) {
      if (message.tool_calls.length > 0)
        for (const piece of callPiecesOf(conversation, message, options, platformId, nodeId)) {
          side.nodes.push(piece.node);
          for (const item of piece.edges) side.edges.push(item);
          for (const file of piece.files) {
            side.nodes.push(file.node);
            side.edges.push(file.edge);
          }
        }
      if (message.attachments.length > 0)
        addMessageAttachments(
          message,
          options.attachmentText,
          platformId,
          nodeId,
          side.nodes,
          side.edges,
        );
    }
  };
  pieces(change.left.messages, left);
  pieces(change.fresh.messages, fresh);
  const workspace: Side = { nodes: [], edges: [] };
  addWorkspace(conversation, workspace.nodes, workspace.edges);
  for (const item of shell.workspace.nodes) left.nodes.push(item);
  for (const item of shell.workspace.edges) left.edges.push(item);
  for (const item of workspace.nodes) fresh.nodes.push(item);
  for (const item of workspace.edges) fresh.edges.push(item);
  const imported: GraphEdge | undefined =
    options.importId === undefined
      ? undefined
      : { kind: 'IMPORTED', from: options.importId, to: owner };
  if (shell.imported) left.edges.push(shell.imported);
  if (imported) fresh.edges.push(imported);
  memo.shell = { conversation: node, imported, workspace };
  return { owner, left, fresh, places: change.places };
}

/**
 * The Document made again from the thread of the memo's last projection (when that was of
 * this conversation), as the change from the one before; undefined otherwise.
 */
export function settleDocument(
  conversation: Conversation,
  options: ProjectOptions & { memo: ProjectMemo },
): GraphDelta | undefined {
  const { memo } = options;
  const thread = memo.part?.messages === conversation.messages ? memo.part.thread : undefined;
  if (!thread) return undefined;
  const platformId = conversation.provider.conversation_id ?? conversation.id;
  const name = conversation.title ?? `conv-${platformId}`;
  const before = memo.document;
  const document = documentNode(conversation, thread, options, platformId, name);
  memo.document = document;
  return {
    owner: conversation.id,
    left: { nodes: before ? [before] : [], edges: [] },
    fresh: { nodes: [document], edges: [] },
    places: new Map(),
  };
}
