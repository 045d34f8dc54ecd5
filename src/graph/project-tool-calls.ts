import { conversationIdOf } from '../model/build-conversation.js';
import type { Conversation, Message, ToolCall } from '../model/pam.js';
import type { GraphEdge, GraphNode } from './graph-batch.js';
import type { CallPieces, ProjectMemo } from './project-memo.js';
import type { FileTools as ProviderFileTools } from '../providers/provider.js';

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
type FileTools = ProviderFileTools | undefined;

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
      for (const file of piece.files) {
        if (!files.has(file.node.id)) {
          files.add(file.node.id);
          nodes.push(file.node);
        }
        edges.push(file.edge);
      }
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
    const cwd = conversation.raw_metadata.cwd;
    return { node, edges, files: filesOf(call, id, fileTools, typeof cwd === 'string' ? cwd : '') };
  });
}

// Where agents' file tools name their file: Claude Code (`file_path`, `notebook_path`),
// OpenCode (`filePath`), Cursor (`target_file`), Goose, Cline and others (`path`); a provider
// adds its own keys (`FileTools.pathKeys`).
const PATH_KEYS = ['file_path', 'notebook_path', 'filePath', 'target_file', 'path'];
const PATCH_FILE = /^\*\*\* (?:Update|Add|Delete) File: (.+)$/gm;

function filesOf(
  call: ToolCall,
  id: string,
  fileTools: FileTools,
  cwd: string,
): CallPieces['files'] {
  const input = typeof call.input === 'object' && call.input !== null ? call.input : {};
  // One tool can both read and write, told apart by its command (Goose's text editor): a
  // provider lists it as `name:command`.
  const names =
    typeof input.command === 'string' ? [call.name, `${call.name}:${input.command}`] : [call.name];
  const patch = names.some((n) => fileTools?.patch?.includes(n));
  const kind = names.some((n) => fileTools?.read.includes(n))
    ? 'READ_FILE'
    : patch || names.some((n) => fileTools?.modify.includes(n))
      ? 'MODIFIED_FILE'
      : undefined;
  if (kind === undefined) return [];
  const paths: string[] = [];
  if (patch) {
    const text = [call.input, input.input, input.patch].find((v) => typeof v === 'string');
    for (const match of (typeof text === 'string' ? text : '').matchAll(PATCH_FILE))
      if (match[1] !== undefined) paths.push(match[1].trim());
  } else {
    const path = [...PATH_KEYS, ...(fileTools?.pathKeys ?? [])]
      .map((k) => input[k])
      .find((v): v is string => typeof v === 'string' && v !== '');
    if (path !== undefined) paths.push(path);
  }
  return [...new Set(paths.map((path) => fromFolder(cwd, path)))].map((path) => {
    const fileId = `file:${path}`;
    return {
      node: { label: 'File', id: fileId, properties: { path, language: languageOf(path) } },
      edge: { kind, from: id, to: fileId },
    };
  });
}

// A relative path (Codex's patches, Cline's tools) from the session's working folder, so the
// same file of two projects is two nodes; an absolute one (Claude Code's) as it is. A path
// that starts with the folder's own name (Zed names a file from its worktree's root folder:
// `mirror/src/cli.rs`) is taken from the folder above it.
function fromFolder(cwd: string, path: string): string {
  if (cwd === '' || /^(\/|[A-Za-z]:[\\/]|\\\\|~)/.test(path)) return path;
  const separator = cwd.includes('\\') && !cwd.includes('/') ? '\\' : '/';
  const folder = cwd.endsWith(separator) ? cwd.slice(0, -1) : cwd;
  // A Windows folder's file is named with its separators (`src/a.ts` in `c:\app` is `c:\app\src\a.ts`).
  const stripped = path.replace(/^\.[\\/]/, '');
  const relative = separator === '\\' ? stripped.replace(/\//g, '\\') : stripped;
  const name = folder.slice(folder.lastIndexOf(separator) + 1);
  const [first] = relative.split(/[\\/]/);
  if (name !== '' && first === name && relative.length > name.length)
    return folder.slice(0, folder.length - name.length) + relative;
  return `${folder}${separator}${relative}`;
}
