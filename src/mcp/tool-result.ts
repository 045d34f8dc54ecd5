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

/** A tool error: one sentence the agent can act on. */
export function failure(error: unknown): ToolResult {
  const message = error instanceof Error ? error.message : String(error);
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
