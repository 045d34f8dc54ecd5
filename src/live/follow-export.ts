import { importExports } from '../data-folder/import-exports.js';
import { NotAnExportError } from '../pipeline/not-an-export-error.js';
import type { Neo4jTarget } from '../stores/neo4j/neo4j-target.js';
import type { LockHolder } from '../data-folder/write-lock.js';
import type { FollowEvent } from './follow-event.js';
import type { FileState, LiveState } from './live-state.js';
import type { FollowedFile } from './scan-folders.js';

/** What importing a dropped export needs from the follower. */
export interface ExportContext {
  dataDir: string;
  neo4j?: Neo4jTarget | undefined;
  redact?: boolean | undefined;
  state: LiveState;
  states: Map<string, FileState>;
  emit: (event: FollowEvent) => void;
  onWait?: ((holder: LockHolder) => void) | undefined;
}

/**
 * Imports an export file dropped into a followed folder, once its size has settled (a download
 * or copy still going on is left until it stops growing): as `chatgraph import` would, so a
 * file imported before is skipped by its checksum. A file that is not an export is told once
 * and left alone until it changes.
 */
export async function followExport(
  file: FollowedFile,
  settled: boolean,
  context: ExportContext,
): Promise<{ waiting: boolean; size: number }> {
  const known = context.states.get(file.path);
  if (known && known.size === file.size && known.mtimeMs === file.mtimeMs)
    return { waiting: false, size: file.size };
  if (!settled) return { waiting: true, size: file.size };
  try {
    const result = await importExports([file.path], {
      dataDir: context.dataDir,
      neo4j: context.neo4j,
      redact: context.redact === true,
      ...(context.onWait ? { onWait: context.onWait } : {}),
    });
    const skipped = result.problems.some((p) => p.code === 'file-already-imported');
    context.emit({
      kind: 'export',
      file: file.path,
      conversations: result.totals.conversations,
      written: result.written.created + result.written.updated,
      skipped: skipped && result.totals.conversations === 0,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    context.emit({
      kind: 'problem',
      file: file.path,
      message: error instanceof NotAnExportError ? `not imported: ${message}` : message,
    });
  }
  const state: FileState = { size: file.size, mtimeMs: file.mtimeMs };
  context.state.set(file.path, state);
  context.states.set(file.path, state);
  return { waiting: false, size: file.size };
}
