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
   * process (SIGKILL), as the parent killed a child.
   */
  deadlineLine(message: string): string;
}
