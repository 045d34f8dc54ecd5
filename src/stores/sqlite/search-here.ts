/**
 * Keyword searches of the embedded store run in child processes by default: a server's long
 * search neither holds its event loop nor outlives its deadline. A one-shot command (the CLI's
 * `search`) runs them here, in its own thread, instead (issue 46: a child cost it a second Node
 * start and the child's own module loading, for one search, and kept nothing warm).
 */
export interface SearchHere {
  /**
   * The one line (newline included) written to stderr when a search passes its deadline: a
   * search's FTS5 work cannot be interrupted, so a watchdog thread says this and ends the
   * process with exit code 2, as the CLI's other errors (see `search-children`'s watchdog).
   */
  deadlineLine(message: string): string;
}
