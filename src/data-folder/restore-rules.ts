import { claudeCodeProjectDirs } from '../live/claude-code-home.js';
import { plural } from '../model/plural.js';
import { readTombstones } from '../folder/deleted-conversations.js';
import type { Folder } from '../folder/folder.js';

/**
 * An import asked to restore deleted conversations that cannot: nothing was deleted
 * (`nothingDeleted`: a plain answer, not a failure), or their text left the bundle with them
 * and only their export brings them back (the message names the sources to give).
 */
export class RestoreError extends Error {
  override readonly name = 'RestoreError';
  constructor(
    message: string,
    readonly nothingDeleted: boolean,
  ) {
    super(message);
  }
}

/**
 * What an import asked to restore with no input reads: a deleted conversation's text left the
 * bundle with it, so only its export brings it back. Claude Code sessions are read again from
 * their folders on this machine, as a plain import reads them; anything else is a
 * {@link RestoreError} saying which export is needed. Every shell's import gets the same rule.
 */
export async function restoreInputs(folder: Folder): Promise<string[]> {
  const tombstones = await readTombstones(folder);
  if (tombstones.length === 0)
    throw new RestoreError(
      `nothing to restore: no conversation in ${folder.dir} was deleted with "chatgraph delete"`,
      true,
    );
  const others = tombstones.filter((t) => t.source !== 'claude-code');
  const sessions = claudeCodeProjectDirs();
  if (others.length === 0 && sessions.length > 0) return sessions;
  const sources = [...new Set(others.map((t) => t.source ?? 'unknown'))].sort();
  const what =
    others.length > 0
      ? `${plural(others.length, 'deleted conversation')} (${sources.join(', ')})`
      : `${plural(tombstones.length, 'deleted Claude Code session')} (no session folder was found)`;
  throw new RestoreError(
    `import --restore reads deleted conversations again from their export, and ${what} left the bundle with their text: chatgraph import --restore <export>`,
    false,
  );
}
