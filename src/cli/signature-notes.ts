import type { Diagnostic } from '../index.js';
import type { CliIo } from './cli-io.js';

// The folder's writing verbs report what they did to a signed bundle's signature as
// diagnostics (data-folder/signature-notes.ts); the CLI says them on stderr, as lines apart
// from the report.
const FAILED = 'bundle-signature-failed';
const DROPPED = 'bundle-signature-dropped';

/** Whether a report's problem group is a signature note (said apart by {@link sayNotes}). */
export const isSignatureNote = (group: { code: string }): boolean =>
  group.code === FAILED || group.code === DROPPED;

/** The signature notes of a write, on stderr: each failure a warning line, then the drop. */
export function sayNotes(notes: readonly Diagnostic[], bundle: string, io: CliIo): void {
  const failed = notes.filter((n) => n.code === FAILED);
  if (failed.length > 0) {
    io.err(`warning: the signature of ${bundle} fails (changed after it was signed):`);
    for (const problem of failed.slice(0, 10))
      io.err(
        `  ${problem.file ?? ''}${problem.record ? ` ${problem.record}` : ''}: ${problem.message}`,
      );
    if (failed.length > 10) io.err(`  and ${String(failed.length - 10)} more (chatgraph verify)`);
  }
  if (notes.some((n) => n.code === DROPPED))
    io.err(`note: ${notes.find((n) => n.code === DROPPED)?.message ?? ''}`);
}
