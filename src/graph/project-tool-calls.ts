import { conversationIdOf } from '../model/build-conversation.js';
import type { Conversation, Message, ToolCall } from '../model/pam.js';
import type { GraphEdge, GraphNode } from './graph-batch.js';
import type { CallPieces, ProjectMemo } from './project-memo.js';

const LANGUAGES: Record<string, string> = {
  ts: 'typescript',
  tsx: 'typescript',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  py: 'python',
  rs: 'rust',
  go: 'go',
  java: 'java',
  rb: 'ruby',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  hpp: 'cpp',
  cs: 'csharp',
  swift: 'swift',
  kt: 'kotlin',
  php: 'php',
  sh: 'shell',
  bash: 'shell',
  md: 'markdown',
  json: 'json',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'toml',
  sql: 'sql',
  html: 'html',
  css: 'css',
  ipynb: 'jupyter',
};

function languageOf(path: string): string | null {
  const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  return extension !== undefined ? (LANGUAGES[extension] ?? extension) : null;
}

/** The provider's tool names that read or modify files (see `Provider.fileTools`). */
type FileTools = { read: readonly string[]; modify: readonly string[] } | undefined;

/**
 * Every tool call is a ToolCall node; the provider's file tools link theirs to shared File
 * nodes (each once per batch, where first met). With a memo, a message already projected
 * gives its calls' pieces again.
 */
export function addToolCalls(
  conversation: Conversation,
  options: { fileTools?: FileTools; memo?: ProjectMemo | undefined },
  platformId: string,
  nodeId: (message: { id: string }) => string,
  nodes: GraphNode[],
  edges: GraphEdge[],
): void {
  const files = new Set<string>();
  for (const message of conversation.messages) {
    if (message.tool_calls.length === 0) continue;
    for (const piece of callPiecesOf(conversation, message, options, platformId, nodeId)) {
      nodes.push(piece.node);
      for (const item of piece.edges) edges.push(item);
      if (!piece.file) continue;
      if (!files.has(piece.file.node.id)) {
        files.add(piece.file.node.id);
        nodes.push(piece.file.node);
      }
      edges.push(piece.file.edge);
    }
  }
}

/** One message's tool calls as pieces of the graph (kept in the memo by message). */
export function callPiecesOf(
  conversation: Conversation,
  message: Message,
  options: { fileTools?: FileTools; memo?: ProjectMemo | undefined },
  platformId: string,
  nodeId: (message: { id: string }) => string,
): CallPieces[] {
  const memo = options.memo?.calls;
  let pieces = memo?.get(message);
  if (!pieces) {
    pieces = callPieces(conversation, message, options.fileTools, platformId, nodeId);
    memo?.set(message, pieces);
  }
  return pieces;
}

function callPieces(
  conversation: Conversation,
  message: Message,
  fileTools: FileTools,
  platformId: string,
  nodeId: (message: { id: string }) => string,
): CallPieces[] {
  const errors = Array.isArray(message.raw_metadata.tool_errors)
    ? (message.raw_metadata.tool_errors as unknown[])
    : [];
  return message.tool_calls.map((call, n) => {
    const id = `${nodeId(message)}:tool-${n}`;
    const node: GraphNode = {
      label: 'ToolCall',
      id,
      properties: {
        name: call.name,
        input: typeof call.input === 'string' ? call.input : JSON.stringify(call.input),
        output: call.output,
        is_error: call.id !== null && errors.includes(call.id),
        timestamp: message.created_at,
        tool_call_id: call.id,
        conversation_id: platformId,
      },
    };
    const edges: GraphEdge[] = [{ kind: 'USED_TOOL', from: nodeId(message), to: id }];
    // A call that started a subagent points at the subagent's conversation (which may be
    // imported later, or not at all: the edge is kept either way).
    for (const started of Array.isArray(message.raw_metadata.subagents)
      ? message.raw_metadata.subagents
      : []) {
      const link = started as { tool_use_id?: unknown; conversation_id?: unknown };
      if (link.tool_use_id === call.id && typeof link.conversation_id === 'string') {
        edges.push({
          kind: 'STARTED',
          from: id,
          to: conversationIdOf(conversation.provider.name, link.conversation_id),
        });
      }
    }
    return { node, edges, file: fileOf(call, id, fileTools) };
  });
}

// Where agents' file tools name their file: Claude Code (`file_path`, `notebook_path`),
// OpenCode (`filePath`), Cursor (`target_file`), Goose and others (`path`).
const PATH_KEYS = ['file_path', 'notebook_path', 'filePath', 'target_file', 'path'];

function fileOf(call: ToolCall, id: string, fileTools: FileTools): CallPieces['file'] {
  const input = typeof call.input === 'object' && call.input !== null ? call.input : {};
  // One tool can both read and write, told apart by its command (Goose's text editor): a
  // provider lists it as `name:command`.
  const names =
    typeof input.command === 'string' ? [call.name, `${call.name}:${input.command}`] : [call.name];
  const kind = names.some((n) => fileTools?.read.includes(n))
    ? 'READ_FILE'
    : names.some((n) => fileTools?.modify.includes(n))
      ? 'MODIFIED_FILE'
      : undefined;
  const path = PATH_KEYS.map((k) => input[k]).find(
    (v): v is string => typeof v === 'string' && v !== '',
  );
  if (kind === undefined || path === undefined) return undefined;
  const fileId = `file:${path}`;
  return {
    node: { label: 'File', id: fileId, properties: { path, language: languageOf(path) } },
    edge: { kind, from: id, to: fileId },
  };
}
