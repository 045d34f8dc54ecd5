/** The shapes of Claude Code session logs (`~/.claude/projects/<project>/<session>.jsonl`). */

/** Entry types that are conversation messages. */
export const MESSAGE_TYPES = new Set(['user', 'assistant', 'system']);

/** Bookkeeping entry types: counted, not kept (export-formats.md §2c). */
export const BOOKKEEPING_TYPES = new Set([
  'queue-operation',
  'attachment',
  'progress',
  'file-history-snapshot',
  'permission-mode',
  'mode',
  'pr-link',
  'worktree-state',
  'atis-latch',
  'agent-name',
  'agent-color',
  'agent-setting',
  'last-prompt',
]);

/** Wrappers the CLI puts around commands and reminders: kept, but marked as not typed by the user. */
export const WRAPPER =
  /^\s*<(command-name|command-message|command-args|local-command-stdout|local-command-stderr|local-command-caveat|system-reminder)>/;

/** Keys of an entry chatgraph maps (the rest go to the message's `raw_metadata`). */
export const MAPPED_ENTRY_KEYS = [
  'type',
  'uuid',
  'parentUuid',
  'logicalParentUuid',
  'sessionId',
  'timestamp',
  'message',
  'cwd',
  'gitBranch',
  'version',
  'isMeta',
  'toolUseResult',
] as const;
