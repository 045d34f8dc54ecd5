import type { GraphBatch, GraphNode } from '../graph/graph-batch.js';
import type { Message } from '../model/pam.js';

/** A message whose text is code sent to a tool (a ChatGPT `code` content type), not prose. */
export interface CodeCell {
  /** The code's language when known (highlight.js and fence names: python, json). */
  language: string | null;
}

// ChatGPT marks the code interpreter's cells `language: "unknown"`; the tool it went to says more.
const TOOL_LANGUAGES: Record<string, string> = { python: 'python' };

/** The code cell a PAM message is, or null when its text is prose. */
export function codeCellOf(message: Pick<Message, 'content' | 'tool_calls'>): CodeCell | null {
  const part = message.content?.parts?.find((p) => p.type === 'code');
  if (!part) return null;
  const stated = part.language?.trim().toLowerCase();
  if (stated && stated !== 'unknown') return { language: stated };
  const tool = message.tool_calls[0]?.name.toLowerCase();
  return { language: (tool !== undefined && TOOL_LANGUAGES[tool]) || null };
}

/**
 * The code cells of a conversation as its graph holds them (the store keeps no content type): a
 * message whose text is exactly the input of the one tool call it made, by message node id.
 */
export function codeCellsIn(graph: GraphBatch | undefined): Map<string, CodeCell> {
  const cells = new Map<string, CodeCell>();
  if (!graph) return cells;
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const calls = new Map<string, GraphNode[]>();
  for (const edge of graph.edges) {
    const call = edge.kind === 'USED_TOOL' ? byId.get(edge.to) : undefined;
    if (call) calls.set(edge.from, [...(calls.get(edge.from) ?? []), call]);
  }
  for (const [messageId, made] of calls) {
    const content = byId.get(messageId)?.properties.content;
    const call = made.length === 1 ? made[0] : undefined;
    if (!call || typeof content !== 'string' || content === '') continue;
    if (call.properties.input !== content) continue;
    const tool = String(call.properties.name ?? '').toLowerCase();
    cells.set(messageId, { language: TOOL_LANGUAGES[tool] ?? null });
  }
  return cells;
}
