import type { DataFolder } from '../index.js';
import type { CliIo } from './cli-io.js';

/**
 * Before a command writes a signed bundle (PAM §21.4: an importer verifies, and warns when a
 * signature fails, never silently): its signature checked, each failure a warning line.
 * Whether the bundle was signed.
 */
export async function checkSignatureBeforeWrite(folder: DataFolder, io: CliIo): Promise<boolean> {
  const { bundle } = folder;
  // A bundle with no memory store yet is unsigned: verify throws, and the answer is no.
  const report = await folder.verify().catch(() => undefined);
  if (!report || report.verdict === 'unsigned') return false;
  if (report.verdict === 'failed') {
    io.err(`warning: the signature of ${bundle} fails (changed after it was signed):`);
    for (const problem of report.problems.slice(0, 10))
      io.err(`  ${problem.file}${problem.path ? ` ${problem.path}` : ''}: ${problem.message}`);
    if (report.problems.length > 10)
      io.err(`  and ${report.problems.length - 10} more (chatgraph verify)`);
  }
  return true;
}

/** After the write: a signed bundle is unsigned now (its signature dropped), said once. */
export async function noteSignatureDropped(
  folder: DataFolder,
  wasSigned: boolean,
  io: CliIo,
): Promise<void> {
  if (!wasSigned) return;
  const report = await folder.verify().catch(() => undefined);
  if (report?.verdict === 'unsigned')
    io.err(
      'note: the bundle was signed and is written again, so it is unsigned now: chatgraph sign signs it again',
    );
}
