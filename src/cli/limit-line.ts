/** How the CLI says a query limit stopped a query: one line naming the flag that sets it. */
export function queryLimitLine(message: string, kind: 'timeout' | 'memory'): string {
  return `chatgraph: ${message} (the limit is set with ${kind === 'timeout' ? '--query-timeout' : '--query-memory'})`;
}
