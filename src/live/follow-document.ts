import { createHash } from 'node:crypto';
import { importIdOf } from '../graph/import-id.js';
import { Redactor, type RedactionCounts } from '../model/redact.js';
import { timestampOf } from '../model/time.js';
import { fileEntry } from '../read/file-entry.js';
import { readRecords } from '../read/read-records.js';
import { parseRecord, type RawRecord } from '../read/record.js';
import type { Folder } from '../folder/folder.js';
import type { LockHolder } from '../folder/write-lock.js';
import { SessionConversion, type LiveConversation } from './convert-session.js';
import type { FoundSides } from './file-sides.js';
import type { FollowEvent } from './follow-event.js';
import type { FileState, LiveState } from './live-state.js';
import type { LiveImport, LiveWriter } from './live-writer.js';
import { pathsOf, type FollowedFile } from './scan-folders.js';

/** What following a document (or a store's session) needs from the follower. */
export interface DocumentContext {
  folder: Folder;
  writer: LiveWriter;
  state: LiveState;
  states: Map<string, FileState>;
  deep: boolean;
  redact?: boolean | undefined;
  /** The conversions of the documents read lately, by path (see {@link Conversions}). */
  conversions: Conversions;
  /** A file set's side files as found now (undefined: the document is one file). */
  findSides: (file: FollowedFile) => Promise<FoundSides | undefined>;
  emit: (event: FollowEvent) => void;
  onWait?: ((holder: LockHolder) => void) | undefined;
}

/**
 * The conversions of followed records (a document, a store's session) written lately, the most
 * recent last: a record written again goes on from its conversion, so the store is written only
 * what changed (its last graph is kept, see `LiveStoreWriter`); one not touched for a while is
 * dropped, and written whole the next time it changes.
 */
export class Conversions {
  private readonly held = new Map<string, SessionConversion>();

  constructor(private readonly capacity = 64) {}

  /** The conversion of a record, made with `make` when it has none. */
  of(key: string, make: () => SessionConversion): SessionConversion {
    const conversion = this.held.get(key) ?? make();
    this.held.delete(key);
    this.held.set(key, conversion);
    while (this.held.size > this.capacity) {
      const oldest = this.held.keys().next().value;
      if (oldest === undefined) break;
      this.held.delete(oldest);
    }
    return conversion;
  }

  delete(key: string): void {
    this.held.delete(key);
  }
}

/**
 * Imports a document an agent rewrites in place (a Cline task's history and the files beside
 * it, an older Gemini CLI chat, Aider's history: `FileClaim.how` `rewrite`) when it or a file
 * of its set changed: read again whole, as `import` reads it, converted, and written to the
 * store at the cost of what changed (the bundle at a quiet moment); then remembered (see
 * `LiveState.later`). A document that does not parse is one its agent is writing now: it waits
 * for its size to settle, and is told as a problem once it settled and still does not parse.
 * `changed` says a side file changed (looked at even when the document's own stamp is the same).
 */
export async function followDocument(
  file: FollowedFile,
  settled: boolean,
  context: DocumentContext,
  changed = false,
): Promise<{ waiting: boolean; size: number }> {
  const claim = file.claim;
  const outcome = { waiting: false, size: file.size };
  if (!claim) return outcome;
  const known = context.states.get(file.path);
  const found = await context.findSides(file);
  const files = filesStamp(file, found);
  if (!changed && known?.stamp?.startsWith(`${files}|`) === true) return outcome;
  const { entryPath, displayPath } = pathsOf(file);
  const entry = fileEntry(file.path, entryPath, displayPath, file.size, new Date(file.mtimeMs));
  let record: RawRecord | undefined;
  for await (const item of readRecords(entry, claim.detection.format, undefined, found?.sides))
    if (item.kind === 'record') record ??= item;
  const parsed = record ? parseRecord(record) : undefined;
  if (!record || !parsed?.ok) {
    if (!settled) return { ...outcome, waiting: true };
    const why = parsed && !parsed.ok ? parsed.message : 'it is empty';
    context.emit({ kind: 'problem', file: file.path, message: `not read: ${why}` });
    remember(context, file, `${files}|unread`, known?.conversations);
    return outcome;
  }
  const content = contentHashOf(record);
  if (known?.stamp?.endsWith(`|${content}`) === true) {
    // Touched, not changed (the same bytes written again).
    remember(context, file, `${files}|${content}`, known.conversations);
    return outcome;
  }
  const checksum = `sha256:${createHash('sha256').update(record.bytes).digest('hex')}`;
  const conversion = context.conversions.of(
    file.path,
    () =>
      new SessionConversion(
        {
          entryPath,
          variant: claim.detection.variant,
          provider: claim.provider,
          localPath: file.path,
        },
        'document',
      ),
  );
  const masked: RedactionCounts = {};
  const redactor = context.redact === true ? new Redactor() : undefined;
  redactor?.learn(parsed.value);
  const value = redactor ? redactor.mask(parsed.value, masked) : parsed.value;
  const conversations = conversion.convert(
    [value],
    {
      entryPath,
      displayPath,
      variant: claim.detection.variant,
      checksum,
      importId: importIdOf(checksum),
      importedAt: timestampOf(new Date()),
      deep: context.deep,
    },
    (d) => {
      if (d.level !== 'info')
        context.emit({ kind: 'problem', file: file.path, message: d.message });
    },
  );
  const from = { sourceFile: displayPath, checksum, size: record.bytes.length };
  const ids = await writeLive(context, conversations, from, redactor, (report) => {
    context.emit({
      kind: 'imported',
      file: file.path,
      lines: 0,
      whole: true,
      conversations: conversations.map((c) => ({ id: c.id, messages: c.messages })),
      ...report,
      masked: Object.values(masked).reduce((sum, n) => sum + n, 0),
    });
  });
  remember(context, file, `${files}|${content}`, ids);
  return outcome;
}

/**
 * Writes a followed record's conversations to the store under the write lock (see
 * `LiveWriter.write`), tells what it did, and returns the conversations' ids (noted as held by
 * their agent again, when they were kept only here).
 */
export async function writeLive(
  context: Pick<DocumentContext, 'folder' | 'writer' | 'state' | 'onWait' | 'redact'>,
  conversations: readonly LiveConversation[],
  from: Omit<LiveImport, 'id' | 'redacted'>,
  redactor: Redactor | undefined,
  tell: (report: { written: number; leftDeleted: number; heldElsewhere: number }) => void,
): Promise<string[]> {
  const report = await context.folder.write(
    () =>
      context.writer.write(
        conversations,
        { ...from, id: importIdOf(from.checksum), redacted: context.redact === true },
        redactor,
      ),
    { onWait: context.onWait, kept: context.writer.target },
  );
  tell(report);
  const ids = conversations.map((c) => c.id);
  context.state.markBack(ids);
  return ids;
}

// Remembered once the bundle has what was read (see `LiveState.later`).
function remember(
  context: DocumentContext,
  file: FollowedFile,
  stamp: string,
  conversations: readonly string[] | undefined,
): void {
  const state: FileState = {
    size: file.size,
    mtimeMs: file.mtimeMs,
    stamp,
    ...(conversations ? { conversations } : {}),
    kind: 'rewrite',
  };
  context.state.later(file.path, state);
  context.states.set(file.path, state);
}

// The sizes and times of the document's files (its side files too): the same, nothing to read.
function filesStamp(file: FollowedFile, found: FoundSides | undefined): string {
  const sides = (found?.sides ?? [])
    .map((s) => `${s.entry.path}:${s.entry.size ?? 0}:${s.entry.modified?.getTime() ?? 0}`)
    .sort();
  return createHash('sha256')
    .update(`${file.size}:${file.mtimeMs}\n${sides.join('\n')}`)
    .digest('hex')
    .slice(0, 32);
}

// What the document's files hold: the same, nothing to write (a file touched, or rewritten as it was).
function contentHashOf(record: RawRecord): string {
  const hash = createHash('sha256').update(record.bytes);
  for (const side of record.side ?? []) hash.update(`\n${side.name}\n`).update(side.bytes);
  return hash.digest('hex').slice(0, 32);
}
