import { createHash } from 'node:crypto';
import { importIdOf } from '../graph/import-id.js';
import { Redactor, type RedactionCounts } from '../model/redact.js';
import { timestampOf } from '../model/time.js';
import { LiveSnapshot, StoreBusyError, storeStamp } from '../read/sqlite-snapshot.js';
import { SqliteSessions, type ListedSession } from '../read/sqlite-sessions.js';
import type { SplitProblem } from '../read/record.js';
import { SessionConversion, type LiveConversation } from './convert-session.js';
import type { DocumentContext } from './follow-document.js';
import type { SessionState } from './live-state.js';
import { pathsOf, type FollowedFile } from './scan-folders.js';

/** What following a SQLite store needs beyond what a document needs. */
export interface StoreContext extends Omit<DocumentContext, 'findSides'> {
  /** The stores' private copies, kept between polls (closed with the follower). */
  snapshots: Map<string, LiveSnapshot>;
  /** Each store's sessions as last read (loaded from the state on first use). */
  storeSessions: Map<string, Map<string, SessionState>>;
}

/** How long one hold of the write lock writes sessions of a store before letting others in. */
const LOCK_SLICE_MILLISECONDS = 250;

/**
 * Imports what changed in an agent's SQLite store (`FileClaim.how` `sqlite`): nothing when its
 * stamp (its files' sizes and times, its headers: see `storeStamp`) is as last read; else its
 * private copy is brought up to it (see `LiveSnapshot`), its sessions are listed with their
 * signatures, and only those new or changed are read, converted and written (the store at once,
 * the bundle at a quiet moment). A session its agent removed stays, told as kept only here.
 * A store that changes under every copy (its agent writing now) waits for the next poll.
 */
export async function followStore(
  file: FollowedFile,
  context: StoreContext,
): Promise<{ waiting: boolean; size: number }> {
  const outcome = { waiting: false, size: file.size };
  const claim = file.claim;
  if (claim?.detection.format.kind !== 'sqlite') return outcome;
  const query = claim.detection.format.store;
  const stamp = await storeStamp(file.path);
  const known = context.states.get(file.path);
  if (known?.stamp === stamp) return outcome;
  let snapshot = context.snapshots.get(file.path);
  if (!snapshot) context.snapshots.set(file.path, (snapshot = await LiveSnapshot.create()));
  let reader: SqliteSessions;
  try {
    reader = await SqliteSessions.open(snapshot, file.path, query);
  } catch (error) {
    // Busy: read at the next poll. Any other failure is told, and tried again at the next change.
    if (!(error instanceof StoreBusyError))
      context.emit({ kind: 'problem', file: file.path, message: `not read: ${describe(error)}` });
    return { ...outcome, waiting: error instanceof StoreBusyError };
  }
  try {
    if (reader.sources.length === 0) return outcome;
    const problems: SplitProblem[] = [];
    const listed = reader.list(problems);
    tell(context, file, problems);
    const sessions = sessionsOf(context, file.path);
    const changed = listed.filter((s) => sessions.get(s.key)?.signature !== s.signature);
    await writeSessions(file, changed, reader, context);
    removed(context, file, new Set(listed.map((s) => s.key)));
  } catch (error) {
    context.emit({ kind: 'problem', file: file.path, message: `not read: ${describe(error)}` });
    return outcome;
  } finally {
    reader.close();
  }
  const state = { size: file.size, mtimeMs: file.mtimeMs, stamp, kind: 'sqlite' };
  context.state.later(file.path, state);
  context.states.set(file.path, state);
  return outcome;
}

// The changed sessions read, converted and written, a slice of them per hold of the write lock.
async function writeSessions(
  file: FollowedFile,
  changed: readonly ListedSession[],
  reader: SqliteSessions,
  context: StoreContext,
): Promise<void> {
  const known = sessionsOf(context, file.path);
  let next = 0;
  while (next < changed.length) {
    await context.folder.write(
      async () => {
        const started = Date.now();
        while (next < changed.length && Date.now() - started < LOCK_SLICE_MILLISECONDS) {
          const session = changed[next++];
          if (!session) break;
          const ids = await writeSession(file, session, reader, context);
          if (ids === undefined) continue;
          const state = { signature: session.signature, conversations: ids };
          known.set(session.key, state);
          context.state.laterSession(file.path, session.key, state);
        }
      },
      { onWait: context.onWait, kept: context.writer.target },
    );
  }
}

// One session: its record as `import` reads it, converted, written; its conversations' ids
// (undefined when it could not be read: tried again at its next change).
async function writeSession(
  file: FollowedFile,
  session: ListedSession,
  reader: SqliteSessions,
  context: StoreContext,
): Promise<string[] | undefined> {
  const claim = file.claim;
  if (!claim) return undefined;
  const problems: SplitProblem[] = [];
  const record = reader.read(session, problems);
  tell(context, file, problems);
  // As the read layer hands it to `import`: JSON text (its checksum is this session's).
  const bytes = Buffer.from(JSON.stringify(record), 'utf8');
  const parsed: unknown = JSON.parse(bytes.toString('utf8'));
  // `--redact`: masked before it is converted, as a log's lines are.
  const redactor = context.redact === true ? new Redactor() : undefined;
  redactor?.learn(parsed);
  const masked: RedactionCounts = {};
  const value = redactor?.hasSecrets === true ? redactor.mask(parsed, masked) : parsed;
  const checksum = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
  const { entryPath, displayPath } = pathsOf(file);
  const variant = claim.detection.variant;
  const key = `${file.path}\u0000${session.key}`;
  const conversion = context.conversions.of(
    key,
    () =>
      new SessionConversion(
        { entryPath, variant, provider: claim.provider, localPath: file.path },
        'document',
      ),
  );
  const conversations: LiveConversation[] = conversion.convert(
    [value],
    {
      entryPath,
      displayPath,
      variant,
      checksum,
      importId: importIdOf(checksum),
      importedAt: timestampOf(new Date()),
      deep: context.deep,
    },
    (d) => {
      if (d.level !== 'info')
        context.emit({ kind: 'problem', file: file.path, message: `${session.key}: ${d.message}` });
    },
  );
  const from = {
    id: importIdOf(checksum),
    sourceFile: displayPath,
    checksum,
    size: bytes.length,
    redacted: context.redact === true,
  };
  const report = await context.writer.write(conversations, from, redactor);
  context.emit({
    kind: 'imported',
    file: file.path,
    lines: 0,
    sessions: 1,
    conversations: conversations.map((c) => ({ id: c.id, messages: c.messages })),
    ...report,
    masked: Object.values(masked).reduce((sum, n) => sum + n, 0),
  });
  const ids = conversations.map((c) => c.id);
  context.state.markBack(ids);
  return ids;
}

// Sessions read before and no longer listed: their agent removed them. What was imported stays.
function removed(context: StoreContext, file: FollowedFile, listed: ReadonlySet<string>): void {
  const known = sessionsOf(context, file.path);
  const gone = [...known.keys()].filter((key) => !listed.has(key));
  if (gone.length === 0) return;
  const ids = gone.flatMap((key) => [...(known.get(key)?.conversations ?? [])]);
  for (const key of gone) {
    known.delete(key);
    context.conversions.delete(`${file.path}\u0000${key}`);
  }
  context.state.deleteSessions(file.path, gone);
  context.state.markGone(ids, file.path, timestampOf(new Date()));
  context.emit({ kind: 'removed', file: file.path, sessions: gone.length, conversations: ids });
}

function sessionsOf(context: StoreContext, store: string): Map<string, SessionState> {
  let sessions = context.storeSessions.get(store);
  if (!sessions) context.storeSessions.set(store, (sessions = context.state.sessionsOf(store)));
  return sessions;
}

function tell(context: StoreContext, file: FollowedFile, problems: readonly SplitProblem[]): void {
  for (const problem of problems)
    context.emit({ kind: 'problem', file: file.path, message: problem.message });
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
