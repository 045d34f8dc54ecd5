import { importIdOf } from '../graph/import-id.js';
import type { Diagnostic } from '../model/diagnostic.js';
import { Redactor, type RedactionCounts } from '../model/redact.js';
import { timestampOf } from '../model/time.js';
import type { Folder } from '../folder/folder.js';
import type { LockHolder } from '../folder/write-lock.js';
import { SessionConversion } from './convert-session.js';
import type { FollowEvent } from './follow-event.js';
import type { FileState, LiveState } from './live-state.js';
import type { LiveWriter } from './live-writer.js';
import { pathsOf, type FollowedFile } from './scan-folders.js';
import type { LoadedSession, SessionCache } from './session-cache.js';
import { readTail } from './session-tail.js';

/** What following one log needs from the follower. */
export interface LogContext {
  folder: Folder;
  writer: LiveWriter;
  state: LiveState;
  states: Map<string, FileState>;
  sessions: SessionCache;
  deep: boolean;
  /** Mask secrets in new lines before anything is written (`--redact`). */
  redact?: boolean | undefined;
  /** The text of a file set's side files, as found now (undefined: the log has none). */
  sidesOf: (file: FollowedFile) => Promise<Record<string, string> | undefined>;
  emit: (event: FollowEvent) => void;
  onWait?: ((holder: LockHolder) => void) | undefined;
}

/** What became of one look at a log. */
export interface LogOutcome {
  /** A last line without its newline is waiting: look again once the size has settled. */
  waiting: boolean;
  /** The size seen, to tell whether it settled. */
  size: number;
}

/**
 * Imports what an agent's JSON Lines log (Claude Code's, Codex's, …: `FileClaim.how` `append`)
 * gained since it was last read: the new lines only (the whole file when it was rewritten, or
 * when it is not in memory), converted with the lines before them, written to the store at once
 * and to the bundle at a quiet moment, and then its new mark remembered (see
 * `LiveState.later`); all under the write lock, so a watcher killed at any point reads again at
 * most what it had not remembered. `changed` says a side file of its file set changed.
 */
export async function followLog(
  file: FollowedFile,
  settled: boolean,
  context: LogContext,
  changed = false,
): Promise<LogOutcome> {
  const known = context.states.get(file.path);
  let session = context.sessions.get(file.path);
  if (!session) {
    // Not in memory and as it was when last imported: nothing to read.
    if (!settled && !changed && unchanged(known, file)) return { waiting: false, size: file.size };
    session = context.sessions.start(file.path);
  }
  const fresh = session.mark === undefined;
  const read = await readTail(file.path, session.mark, settled);
  if (read.rewritten) {
    session = context.sessions.start(file.path);
    context.emit({ kind: 'rewritten', file: file.path });
  }
  // Masked as each line is read (`--redact`): a secret is never held, converted or written, and
  // one found in a line is masked bare in the session's later lines too.
  const masked: RedactionCounts = {};
  const redactor = context.redact ? redactorOf(session) : undefined;
  for (const line of read.lines) {
    if (line.ok) {
      redactor?.learn(line.value);
      session.unconverted.push(redactor ? redactor.mask(line.value, masked) : line.value);
      session.lines++;
    } else
      context.emit({
        kind: 'problem',
        file: file.path,
        message: `line ${line.line} is not valid JSON (${line.message}); skipped`,
      });
  }
  session.hash.update(read.bytes);
  session.mark = read.mark;
  const outcome = { waiting: read.waiting, size: read.size };
  if (read.waiting && settled) context.emit({ kind: 'waiting', file: file.path });
  const side = await context.sidesOf(file);
  const sideChanged = JSON.stringify(side) !== JSON.stringify(session.side);
  session.side = side;
  if (read.lines.length === 0 && !read.rewritten && !fresh && !sideChanged) return outcome;
  if (session.lines === 0 || !file.claim) return outcome;
  session.variant ??= file.claim.detection.variant;
  const secrets = Object.values(masked).reduce((sum, n) => sum + n, 0);
  const written = await writeSession(
    file,
    session,
    read.lines.length,
    fresh || read.rewritten,
    context,
    secrets,
  );
  // Remembered as read up to the mark: a waiting last line makes the size differ, so a
  // restarted watcher looks at the file again.
  const state: FileState = {
    size: read.waiting ? read.mark.offset : read.size,
    mtimeMs: file.mtimeMs,
    mark: read.mark,
    conversations: written,
    kind: 'append',
  };
  context.state.later(file.path, state);
  context.states.set(file.path, state);
  return outcome;
}

function unchanged(known: FileState | undefined, file: FollowedFile): boolean {
  return known !== undefined && known.size === file.size && known.mtimeMs === file.mtimeMs;
}

// A session's secrets so far, forgotten with the session (a log read again whole learns anew).
const redactors = new WeakMap<LoadedSession, Redactor>();

function redactorOf(session: LoadedSession): Redactor {
  let redactor = redactors.get(session);
  if (!redactor) redactors.set(session, (redactor = new Redactor()));
  return redactor;
}

// Converts what the session's lines give now and writes it; returns the conversations' ids.
async function writeSession(
  file: FollowedFile,
  session: LoadedSession,
  newLines: number,
  whole: boolean,
  context: LogContext,
  masked = 0,
): Promise<string[]> {
  const { entryPath, displayPath } = pathsOf(file);
  const checksum = `sha256:${session.hash.copy().digest('hex')}`;
  const variant = session.variant ?? 'session';
  const provider = file.claim?.provider;
  session.conversion ??= new SessionConversion({
    entryPath,
    variant,
    ...(provider ? { provider } : {}),
    localPath: file.path,
  });
  session.conversion.setSide(session.side);
  const conversations = session.conversion.convert(
    session.unconverted.splice(0),
    {
      entryPath,
      displayPath,
      variant,
      checksum,
      // The Import of the bytes read so far, as `import` and `reindex` name it: a followed log's
      // graph is the one they make (the stores' patch moves its IMPORTED edge at each append).
      importId: importIdOf(checksum),
      importedAt: timestampOf(new Date()),
      deep: context.deep,
    },
    // Problems are told when the log is read whole (a fallback conversion tells them again).
    (d: Diagnostic) => {
      if (whole && d.level !== 'info')
        context.emit({ kind: 'problem', file: file.path, message: d.message });
    },
  );
  const report = await context.folder.write(
    () =>
      context.writer.write(
        conversations,
        {
          id: importIdOf(checksum),
          sourceFile: displayPath,
          checksum,
          size: session.mark?.offset ?? 0,
          redacted: context.redact === true,
        },
        context.redact ? redactorOf(session) : undefined,
      ),
    { onWait: context.onWait, kept: context.writer.target },
  );
  context.emit({
    kind: 'imported',
    file: file.path,
    lines: newLines,
    conversations: conversations.map((c) => ({ id: c.id, messages: c.messages })),
    written: report.written,
    leftDeleted: report.leftDeleted,
    heldElsewhere: report.heldElsewhere,
    masked,
  });
  const ids = conversations.map((c) => c.id);
  context.state.markBack(ids);
  return ids;
}
