import { SHOWN_LEAF_KEY, threadTo } from '../model/build-conversation.js';
import type { Conversation, Message } from '../model/pam.js';
import type { GraphBatch, GraphEdge, GraphNode } from './graph-batch.js';
import { messageNodeId } from './message-node-id.js';
import { addAttachments } from './project-attachments.js';
import type { ProjectMemo } from './project-memo.js';
import { addToolCalls } from './project-tool-calls.js';

/** What the projection needs to know besides the conversation. */
export interface ProjectOptions {
  /** The graph `source` (the provider's, e.g. `claude-ai`). */
  source: string;
  /** The provider's name for people (`Claude AI`, `ChatGPT`), for Document titles. */
  label: string;
  /** Deep mode: tool calls become DecisionTrace and TraceStep nodes. */
  deep: boolean;
  /** The Import node that wrote this conversation, linked by IMPORTED. */
  importId?: string;
  /** The provider's tool names that read or modify files (see `Provider.fileTools`). */
  fileTools?: { read: readonly string[]; modify: readonly string[] } | undefined;
  /**
   * The text behind an attachment's `ref`, when the bundle keeps it as text (pasted or
   * extracted text, see `InlineTexts`): at import the texts just converted, at reindex the
   * bundle's files. Without it, or for other refs, an Attachment's `content` is null.
   */
  attachmentText?: ((ref: string) => string | undefined) | undefined;
  /** Kept between projections of a conversation that grows (a followed session). */
  memo?: ProjectMemo | undefined;
  /**
   * With a memo: give the memo's Document again instead of making it (false) until a quiet
   * moment settles it (true, the default). The Document is the whole thread's text, so making
   * it at every append would make an append cost the session's length.
   */
  settle?: boolean | undefined;
}

/** Whether a message is left off the NEXT chain: hidden context and system messages. */
export function isOffThread(message: Message): boolean {
  return message.raw_metadata.hidden === true || message.role === 'system';
}

/** The message's text, in full. */
function textOf(message: Message): string {
  return message.content?.text ?? '';
}

const ROLE_LABELS: Record<Message['role'], string> = {
  user: 'User',
  assistant: 'Assistant',
  system: 'System',
  tool: 'Tool',
};

/**
 * Projects a PAM conversation into the seed's graph, deterministically: a Conversation, a
 * Message per message of every branch (HAS_MESSAGE; REPLY_TO its parent), NEXT along the shown
 * thread, a Document with the thread's text, an Attachment per attachment (HAS_ATTACHMENT, with
 * its text when known), and in deep mode a DecisionTrace of TraceSteps.
 */
export function project(conversation: Conversation, options: ProjectOptions): GraphBatch {
  const platformId = conversation.provider.conversation_id ?? conversation.id;
  const owner = conversation.id;
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const leaf = conversation.raw_metadata[SHOWN_LEAF_KEY];
  const shownPath = typeof leaf === 'string' ? threadTo(conversation, leaf) : [];
  const thread = shownPath.filter((m) => !isOffThread(m));
  const nodeId = (message: { id: string }): string => messageNodeId(owner, message.id);
  const name = conversation.title ?? `conv-${platformId}`;
  nodes.push(conversationNode(conversation, options.source, platformId, name));
  addMessages(conversation, thread, platformId, options.memo, nodes, edges);
  for (let i = 1; i < thread.length; i++) {
    const from = thread[i - 1] as Message;
    const to = thread[i] as Message;
    const known = options.memo?.next.get(to);
    if (known?.from === from) {
      edges.push(known.edge);
      continue;
    }
    const edge: GraphEdge = { kind: 'NEXT', from: nodeId(from), to: nodeId(to) };
    options.memo?.next.set(to, { from, edge });
    edges.push(edge);
  }
  const kept = options.settle === false ? options.memo?.document : undefined;
  const document = kept ?? documentNode(conversation, thread, options, platformId, name);
  if (options.memo) options.memo.document = document;
  nodes.push(document);
  edges.push({ kind: 'HAS_DOCUMENT', from: owner, to: `${owner}:document` });
  addToolCalls(conversation, options, platformId, nodeId, nodes, edges);
  addAttachments(conversation, options.attachmentText, platformId, nodeId, nodes, edges);
  addWorkspace(conversation, nodes, edges);
  if (options.deep) addTrace(conversation, options, platformId, name, nodes, edges);
  if (options.importId !== undefined)
    edges.push({ kind: 'IMPORTED', from: options.importId, to: owner });
  return { owner, nodes, edges };
}

function conversationNode(
  conversation: Conversation,
  source: string,
  platformId: string,
  name: string,
): GraphNode {
  return {
    label: 'Conversation',
    id: conversation.id,
    properties: {
      name,
      title: conversation.title,
      conversation_id: platformId,
      pam_id: conversation.id,
      source,
      created_at: conversation.temporal.created_at,
      updated_at: conversation.temporal.updated_at,
      message_count: conversation.messages.length,
      model_slug: conversation.model,
      has_tool_calls: conversation.messages.some((m) => m.tool_calls.length > 0),
      // Edited prompts and regenerated answers: a message with more than one reply.
      has_branches: conversation.messages.some((m) => m.children_ids.length > 1),
    },
  };
}

/** A Message node per message of every branch, with HAS_MESSAGE and REPLY_TO. */
function addMessages(
  conversation: Conversation,
  thread: readonly Message[],
  platformId: string,
  memo: ProjectMemo | undefined,
  nodes: GraphNode[],
  edges: GraphEdge[],
): void {
  const owner = conversation.id;
  const position = new Map(thread.map((m, i) => [m.id, i]));
  for (const message of conversation.messages) {
    const at = position.get(message.id);
    const known = memo?.messages.get(message);
    if (known && known.at === at) {
      nodes.push(known.node);
      edges.push(...known.edges);
      continue;
    }
    const id = messageNodeId(owner, message.id);
    const node: GraphNode = {
      label: 'Message',
      id,
      properties: {
        name: `msg-${(message.provider_message_id ?? message.id).slice(0, 12)}`,
        role: message.role,
        content: textOf(message),
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
      },
    };
    const own: GraphEdge[] = [{ kind: 'HAS_MESSAGE', from: owner, to: id }];
    if (message.parent_id !== null)
      own.push({ kind: 'REPLY_TO', from: id, to: messageNodeId(owner, message.parent_id) });
    memo?.messages.set(message, { at, node, edges: own });
    nodes.push(node);
    edges.push(...own);
  }
}

/** The seed's Document: the shown thread's text, thoughts left out. */
function documentNode(
  conversation: Conversation,
  thread: readonly Message[],
  options: ProjectOptions,
  platformId: string,
  name: string,
): GraphNode {
  return {
    label: 'Document',
    id: `${conversation.id}:document`,
    properties: {
      title: `${options.label}: ${name}`,
      content: thread
        .filter((m) => !m.is_thought)
        .map((m) => {
          let line = options.memo?.lines.get(m);
          if (line === undefined) {
            line = `${ROLE_LABELS[m.role]}: ${textOf(m)}`;
            options.memo?.lines.set(m, line);
          }
          return line;
        })
        .join('\n\n'),
      template_id: 'chat-import',
      template_name: `${options.label} Conversation`,
      conversation_id: platformId,
      source: options.source,
      created_at: conversation.temporal.created_at,
    },
  };
}

function addTrace(
  conversation: Conversation,
  options: ProjectOptions,
  platformId: string,
  name: string,
  nodes: GraphNode[],
  edges: GraphEdge[],
): void {
  const calls = conversation.messages.flatMap((message) =>
    message.tool_calls.map((call) => ({ message, call })),
  );
  if (calls.length === 0) return;
  const traceId = `${options.source}-trace-${platformId}`;
  nodes.push({
    label: 'DecisionTrace',
    id: traceId,
    properties: {
      task: `Tool usage in: ${name}`,
      outcome: `${calls.length} tool call${calls.length === 1 ? '' : 's'}, ${calls.filter((c) => c.call.output !== null).length} with a result`,
      conversation_id: platformId,
      source: options.source,
    },
  });
  edges.push({ kind: 'HAS_TRACE', from: conversation.id, to: traceId });
  let previous: string | undefined;
  let step = 0;
  const messageNode = (message: Message): string => messageNodeId(conversation.id, message.id);
  const addStep = (properties: GraphNode['properties']): void => {
    const id = `${traceId}:step-${step}`;
    nodes.push({
      label: 'TraceStep',
      id,
      properties: { ...properties, step, conversation_id: platformId },
    });
    edges.push({ kind: 'HAS_STEP', from: traceId, to: id });
    if (previous !== undefined) edges.push({ kind: 'STEP_NEXT', from: previous, to: id });
    previous = id;
    step++;
  };
  // Each call is followed by its own result (paired by id, so parallel calls stay apart).
  calls.forEach(({ message, call }, n) => {
    const callId = call.id ?? `${message.id}#${n}`;
    addStep({
      thought: textOf(message),
      action: `tool_use:${call.name}`,
      observation: typeof call.input === 'string' ? call.input : JSON.stringify(call.input),
      tool_call_id: callId,
      message_id: messageNode(message),
    });
    if (call.output !== null) {
      addStep({
        thought: `result of ${call.name}`,
        action: `tool_result:${call.name}`,
        observation: call.output,
        tool_call_id: callId,
        message_id: messageNode(message),
      });
    }
  });
}

// A coding session's working folder and branch (Claude Code's cwd and gitBranch), shared nodes.
function addWorkspace(conversation: Conversation, nodes: GraphNode[], edges: GraphEdge[]): void {
  const cwd = conversation.raw_metadata.cwd;
  if (typeof cwd !== 'string' || cwd === '') return;
  const projectId = `project:${cwd}`;
  nodes.push({
    label: 'Project',
    id: projectId,
    properties: { path: cwd, name: cwd.split(/[\\/]/).filter(Boolean).at(-1) ?? cwd },
  });
  edges.push({ kind: 'HAS_SESSION', from: projectId, to: conversation.id });
  const branch = conversation.raw_metadata.git_branch;
  if (typeof branch !== 'string' || branch === '') return;
  const branchId = `branch:${cwd}:${branch}`;
  nodes.push({ label: 'GitBranch', id: branchId, properties: { name: branch, project: cwd } });
  edges.push({ kind: 'ON_BRANCH', from: conversation.id, to: branchId });
}
