import { findProvider } from '../providers/registry.js';
import { readBundleConversation } from '../bundle/read-bundle.js';
import type { Folder } from '../folder/folder.js';
import type { GraphBatch } from '../graph/graph-batch.js';
import { messageNodeId } from '../graph/message-node-id.js';
import type { Citation } from '../model/pam.js';
import type {
  ConversationInfo,
  ConversationReader,
  Store,
  ThreadMessage,
} from '../stores/store.js';
import { attachmentViews, type AttachmentView } from './attachment-views.js';
import { codeCellOf, type CodeCell } from './code-cell.js';

export type { AttachmentView } from './attachment-views.js';
export type { CodeCell } from './code-cell.js';

/** A tool call a message made, as the graph holds it. */
export interface ToolCallView {
  name: string;
  input: string | null;
  output: string | null;
  isError: boolean;
  /** The input's language when the tool or the input tells (python, bash, json), else null. */
  inputLanguage: string | null;
  /** The input is the message's own text, drawn as the text (`input` is then null). */
  inputAbove: boolean;
}

/**
 * The language of a tool call's input, for highlighting: JSON when it is a JSON object or array
 * (most tools take their arguments so, Claude Code's Bash too: `{"command": …}`), else the code
 * tools' own, else JSON when it parses. One answer for every shell that draws it.
 */
function inputLanguage(name: string, input: string | null): string | null {
  if (isJson(input)) return 'json';
  if (/^(python|code_interpreter|jupyter)$/i.test(name)) return 'python';
  if (/^(bash|shell|terminal)$/i.test(name)) return 'bash';
  return null;
}

/** A source a message cited. */
export interface CitationView {
  title: string | null;
  url: string | null;
  snippet: string | null;
}

/** One message of a conversation view: the thread's fields, its tool calls, attachments and citations. */
export interface MessageView extends Omit<ThreadMessage, 'attachments'> {
  toolCalls: ToolCallView[];
  attachments: AttachmentView[];
  citations: CitationView[];
  /** Set when the message's text is code (a code-interpreter cell), to be shown as code. */
  code: CodeCell | null;
  /** Whether a shell draws the text: false when a tool call below shows it (see `drawnOnce`). */
  textShown: boolean;
}

/**
 * Each message as every shell draws it, so that nothing shows twice: its text, and the tool
 * calls under it. A code cell's call carries the cell's own text (drawn as code) and its output
 * comes as the tool's next message, so the call is left out. A message whose whole text is the
 * input of a call it made is drawn once: as that call when the input is JSON (ChatGPT's browser
 * and search calls: `{"query": …}`), else as its text, the call without the input. A call's
 * output that a tool message answering it holds word for word is left to that message.
 */
function drawnOnce(messages: readonly MessageView[]): MessageView[] {
  const answered = new Map<string, Set<string>>();
  for (const m of messages)
    if (m.role === 'tool' && m.parentId !== null)
      answered.set(m.parentId, (answered.get(m.parentId) ?? new Set()).add(m.content));
  return messages.map((message) => {
    const echoes = (call: ToolCallView): boolean =>
      message.content !== '' && call.input === message.content;
    const echoed = message.toolCalls.some(echoes);
    const asCall = echoed && message.code === null && !message.isThought && isJson(message.content);
    const outputs = answered.get(message.id);
    const toolCalls = message.toolCalls
      .filter((call) => message.code === null || !echoes(call))
      .map((call) => {
        const above = echoes(call) && !asCall;
        return {
          ...call,
          input: above ? null : call.input,
          inputAbove: above,
          output: call.output !== null && outputs?.has(call.output) ? null : call.output,
        };
      });
    return { ...message, toolCalls, textShown: message.content !== '' && !asCall };
  });
}

// An object or an array written as JSON (what a tool takes as its arguments).
function isJson(text: string | null): boolean {
  if (text === null || !/^\s*[[{]/.test(text)) return false;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A conversation with every message of every branch, in tree order. */
export interface ConversationView {
  conversation: ConversationInfo;
  /** Where it lives on its platform (`https://claude.ai/chat/…`), when the export tells. */
  url: string | null;
  messages: MessageView[];
}

/**
 * A conversation for reading: every message of every branch in tree order (a shell shows the
 * shown thread and switches branches at forks), each with its tool calls from the graph, and its
 * attachments and citations from the bundle when the data folder has it (pasted or extracted
 * text from the graph). Undefined when neither of the conversation's ids is known.
 */
export async function readConversationView(
  store: ConversationReader,
  folder: Folder,
  id: string,
): Promise<ConversationView | undefined> {
  const info = await store.conversation(id);
  if (!info) return undefined;
  const [messages, graph, pam] = await Promise.all([
    store.thread(info.id, { allBranches: true }),
    store.subgraph(info.id),
    readBundleConversation(folder.bundle, info.id),
  ]);
  const calls = toolCallsByMessage(graph);
  const extras = new Map(
    (pam?.messages ?? []).map((m) => [
      messageNodeId(info.id, m.id),
      { attachments: m.attachments, citations: m.citations, code: codeCellOf(m) },
    ]),
  );
  return {
    conversation: info,
    url: platformUrlOf(info, graph, pam?.raw_metadata ?? {}),
    messages: withoutBlanks(
      drawnOnce(
        messages.map((message) => {
          const extra = extras.get(message.id);
          return {
            id: message.id,
            role: message.role,
            content: message.content,
            createdAt: message.createdAt,
            model: message.model,
            parentId: message.parentId,
            isThought: message.isThought,
            hidden: message.hidden,
            onShownThread: message.onShownThread,
            depth: message.depth,
            toolCalls: calls.get(message.id) ?? [],
            attachments: attachmentViews(extra?.attachments, message.attachments),
            citations: (extra?.citations ?? []).map(citationView),
            code: extra?.code ?? null,
            textShown: true,
          };
        }),
      ),
    ),
  };
}

/**
 * A hidden or system message with nothing in it: no text, tool call, attachment or source
 * (ChatGPT's empty system prompt at the root of nearly every conversation). No shell draws it,
 * and drawn it looked like an empty card, or, off the NEXT chain, like a branch.
 */
function isBlank(message: MessageView): boolean {
  return (
    (message.hidden || message.role === 'system') &&
    message.content.trim() === '' &&
    message.toolCalls.length === 0 &&
    message.attachments.length === 0 &&
    message.citations.length === 0
  );
}

/**
 * The messages without the blank ones (see {@link isBlank}): a blank message's replies answer
 * its parent instead, and depths are counted again. Messages come in tree order, each after its
 * parent, so one pass does it.
 */
function withoutBlanks(messages: readonly MessageView[]): MessageView[] {
  const replaced = new Map<string, string | null>();
  const depths = new Map<string, number>();
  const kept: MessageView[] = [];
  for (const message of messages) {
    let parentId = message.parentId;
    while (parentId !== null && replaced.has(parentId)) parentId = replaced.get(parentId) ?? null;
    if (isBlank(message)) {
      replaced.set(message.id, parentId);
      continue;
    }
    const depth = parentId !== null ? (depths.get(parentId) ?? -1) + 1 : 0;
    depths.set(message.id, depth);
    kept.push({ ...message, parentId, depth });
  }
  return kept;
}

/**
 * Where a conversation lives on its platform: the address its projection recorded (the
 * Conversation node's `url`, in `graph`), else, for one indexed before addresses were, the one
 * its provider builds from the platform id (and the bundle's `raw_metadata`, when read).
 */
export function platformUrlOf(
  info: Pick<ConversationInfo, 'source' | 'platformId'>,
  graph: GraphBatch | undefined,
  raw: Readonly<Record<string, unknown>> = {},
): string | null {
  const kept = graph?.nodes.find((n) => n.label === 'Conversation')?.properties.url;
  if (typeof kept === 'string' && kept !== '') return kept;
  return findProvider(info.source)?.conversationUrl?.(info.platformId, raw) ?? null;
}

/**
 * Where each of a page of conversations lives on its platform, by chatgraph's id, as
 * `platformUrlOf` gives it. A provider that builds the address from the platform id alone builds
 * the one its projection kept, so only a conversation whose address came from its export's
 * metadata (Perplexity's thread URL) costs a read of its recorded graph.
 */
export async function platformUrlsOf(
  store: Pick<Store, 'subgraph'>,
  conversations: readonly Pick<ConversationInfo, 'id' | 'source' | 'platformId'>[],
): Promise<Map<string, string | null>> {
  const urls = await Promise.all(
    conversations.map(async (c) => {
      const built = platformUrlOf(c, undefined);
      if (built !== null || !findProvider(c.source)?.conversationUrl) return built;
      return platformUrlOf(c, await store.subgraph(c.id));
    }),
  );
  return new Map(conversations.map((c, i) => [c.id, urls[i] ?? null]));
}

// The tool calls of each message node: the ToolCall nodes its USED_TOOL edges reach.
function toolCallsByMessage(graph: GraphBatch | undefined): Map<string, ToolCallView[]> {
  const calls = new Map<string, ToolCallView[]>();
  if (!graph) return calls;
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  for (const edge of graph.edges) {
    if (edge.kind !== 'USED_TOOL') continue;
    const call = byId.get(edge.to)?.properties;
    if (!call) continue;
    const list = calls.get(edge.from) ?? [];
    const name = String(call.name ?? 'tool');
    const input = typeof call.input === 'string' ? call.input : null;
    list.push({
      name,
      input,
      output: typeof call.output === 'string' ? call.output : null,
      isError: call.is_error === true,
      inputLanguage: inputLanguage(name, input),
      inputAbove: false,
    });
    calls.set(edge.from, list);
  }
  return calls;
}

function citationView(citation: Citation): CitationView {
  return { title: citation.title, url: citation.url, snippet: citation.snippet };
}
