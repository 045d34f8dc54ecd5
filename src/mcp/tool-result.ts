import { QueryLimitError } from '../api/query.js';

/** What a tool handler returns (the SDK's CallToolResult, narrowed to text content). */
export type ToolResult = {
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
};

/** A result with its text for the agent and the same facts as structured content. */
export function ok(text: string, structured: Record<string, unknown>): ToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/**
 * Where a limit that stopped a query is set, in an agent's words: the tool's limit on this
 * server, chosen by whoever starts it (the agent cannot change it; a narrower query can fit).
 */
function limitWords(kind: 'timeout' | 'memory'): string {
  const [what, option] =
    kind === 'timeout' ? ['time', 'query-timeout'] : ['memory', 'query-memory'];
  return `run_cypher's ${what} limit on this MCP server, set by the server's ${option} option when it is started; a narrower query or a LIMIT may fit`;
}

/** A tool error: one sentence the agent can act on. */
export function failure(error: unknown): ToolResult {
  const message =
    error instanceof QueryLimitError && error.limit
      ? `${error.message} (${limitWords(error.limit.kind)})`
      : error instanceof Error
        ? error.message
        : String(error);
  return { content: [{ type: 'text', text: message }], isError: true };
}

/**
 * Runs a tool, answering errors in its input (unknown ids, bad dates, limits, writing Cypher)
 * as a tool error: the server goes on, and the agent reads why.
 */
export async function guarded(run: () => Promise<ToolResult>): Promise<ToolResult> {
  try {
    return await run();
  } catch (error) {
    return failure(error);
  }
}
