import type { FileTools, Provider } from '../providers/provider.js';
import type { Conversation, Message } from '../model/pam.js';
import type { GraphBatch, GraphEdge, GraphNode } from './graph-batch.js';
import { messageNodeId } from './message-node-id.js';
import { addAttachments } from './project-attachments.js';
import type { MessagePart, ProjectMemo } from './project-memo.js';
import { modelOf, previewOf } from './preview.js';
import { messagePart } from './project-messages.js';
import { addToolCalls } from './project-tool-calls.js';
import { conversationProject } from './platform-projects.js';

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
  /** Where a conversation lives on its platform (see `Provider.conversationUrl`). */
  conversationUrl?: Provider['conversationUrl'];
  /** The provider's tool names that read or modify files (see `Provider.fileTools`). */
  fileTools?: FileTools | undefined;
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

export { isOffThread } from './project-messages.js';

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
  const part = messagePart(conversation, platformId, options.memo);
  const { thread } = part;
  const nodeId = (message: { id: string }): string => messageNodeId(owner, message.id);
  const name = conversation.title ?? `conv-${platformId}`;
  const nodes: GraphNode[] = [
    conversationNode(conversation, part, options, platformId, name),
  ].concat(part.nodes);
  const edges: GraphEdge[] = [];
  for (const own of part.edges) for (const edge of own) edges.push(edge);
  for (const edge of part.next) edges.push(edge);
  const kept = options.settle === false ? options.memo?.document : undefined;
  const document = kept ?? documentNode(conversation, thread, options, platformId, name);
  if (options.memo) options.memo.document = document;
  nodes.push(document);
  edges.push({ kind: 'HAS_DOCUMENT', from: owner, to: `${owner}:document` });
  addToolCalls(conversation, options, platformId, nodeId, nodes, edges);
  addAttachments(conversation, options.attachmentText, platformId, nodeId, nodes, edges);
  const workspace = { nodes: [] as GraphNode[], edges: [] as GraphEdge[] };
  addWorkspace(conversation, workspace.nodes, workspace.edges);
  for (const item of workspace.nodes) nodes.push(item);
  for (const item of workspace.edges) edges.push(item);
  if (options.deep) addTrace(conversation, options, platformId, name, nodes, edges);
  const imported: GraphEdge | undefined =
    options.importId === undefined
      ? undefined
      : { kind: 'IMPORTED', from: options.importId, to: owner };
  if (imported) edges.push(imported);
  if (options.memo)
    options.memo.shell = { conversation: nodes[0] as GraphNode, imported, workspace };
  return { owner, nodes, edges };
}

export function conversationNode(
  conversation: Conversation,
  part: MessagePart,
  options: Pick<ProjectOptions, 'source' | 'conversationUrl'>,
  platformId: string,
  name: string,
): GraphNode {
  const url = options.conversationUrl?.(platformId, conversation.raw_metadata);
  return {
    label: 'Conversation',
    id: conversation.id,
    properties: {
      name,
      title: conversation.title,
      conversation_id: platformId,
      pam_id: conversation.id,
      source: options.source,
      created_at: conversation.temporal.created_at,
      updated_at: conversation.temporal.updated_at,
      message_count: conversation.messages.length,
      model_slug: modelOf(conversation.model, part.thread),
      preview: previewOf(part.thread),
      ...(url ? { url } : {}),
      has_tool_calls: part.withToolCalls > 0,
      // Edited prompts and regenerated answers: a message with more than one reply.
      has_branches: part.withBranches > 0 || part.roots > 1,
      ...chatgptSettings(conversation),
    },
  };
}

// ChatGPT's per-conversation settings, from raw_metadata (where the provider keeps them).
function chatgptSettings(conversation: Conversation): GraphNode['properties'] {
  if (conversation.provider.name !== 'chatgpt') return {};
  const raw = conversation.raw_metadata;
  const settings: GraphNode['properties'] = {};
  for (const key of ['gizmo_id', 'gizmo_type', 'memory_scope'] as const) {
    const value = raw[key];
    if (typeof value === 'string' && value !== '') settings[key] = value;
  }
  if (typeof raw.is_study_mode === 'boolean') settings.is_study_mode = raw.is_study_mode;
  return settings;
}

/** The seed's Document: the shown thread's text, thoughts left out. */
export function documentNode(
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
export function addWorkspace(
  conversation: Conversation,
  nodes: GraphNode[],
  edges: GraphEdge[],
): void {
  addPlatformProject(conversation, nodes, edges);
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

// A conversation of a platform's project (a Claude.ai one saved with its project's id, a ChatGPT
// one of a `g-p-` project gizmo): linked to the project's node, which for Claude.ai the bundle's
// project memories fill in (see platform-projects.ts); only what the record knows here.
function addPlatformProject(
  conversation: Conversation,
  nodes: GraphNode[],
  edges: GraphEdge[],
): void {
  const project = conversationProject(conversation);
  if (!project) return;
  nodes.push({
    label: 'Project',
    id: project.id,
    properties: {
      path: null,
      name: project.name,
      source: project.source,
      project_id: project.uuid,
      description: null,
      instructions: null,
    },
  });
  edges.push({ kind: 'HAS_SESSION', from: project.id, to: conversation.id });
}
