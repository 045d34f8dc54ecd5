import type { Diagnostic } from '../model/diagnostic.js';
import type { VerifyReport } from '../trust/verify-bundle.js';

/**
 * A signed bundle whose signature failed before a write (changed after it was signed): one
 * diagnostic a problem the check found, its file and place.
 */
export const SIGNATURE_FAILED = 'bundle-signature-failed';
/** A write's result with its signature notes (none when the bundle was not signed). */
export type Noted = { notes: Diagnostic[] };

/** A signed bundle written again: its signature dropped, so it is unsigned now. */
export const SIGNATURE_DROPPED = 'bundle-signature-dropped';

/**
 * A write to a signed bundle, with what it did to the signature as diagnostics (PAM §21.4: an
 * importer verifies, and warns when a signature fails, never silently): each failure found
 * before the write a warning, and the signature the write dropped a notice. Every shell that
 * writes through the folder gets them (the CLI, an upload in the web app, an agent's memory).
 */
export async function withSignatureNotes<T>(
  verify: () => Promise<VerifyReport>,
  write: () => Promise<T>,
): Promise<{ result: T; notes: Diagnostic[] }> {
  // A bundle with no memory store yet is unsigned: verify throws, and the answer is no.
  const before = await verify().catch(() => undefined);
  if (!before || before.verdict === 'unsigned') return { result: await write(), notes: [] };
  const notes: Diagnostic[] = [];
  if (before.verdict === 'failed')
    for (const problem of before.problems)
      notes.push({
        level: 'warning',
        code: SIGNATURE_FAILED,
        message: problem.message,
        file: problem.file,
        ...(problem.path ? { record: problem.path } : {}),
      });
  const result = await write();
  const after = await verify().catch(() => undefined);
  if (after?.verdict === 'unsigned')
    notes.push({
      level: 'info',
      code: SIGNATURE_DROPPED,
      message:
        'the bundle was signed and is written again, so it is unsigned now: chatgraph sign signs it again',
    });
  return { result, notes };
}
