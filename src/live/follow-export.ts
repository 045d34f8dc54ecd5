import { NotAnExportError } from '../pipeline/not-an-export-error.js';
import type { FollowEvent } from './follow-event.js';
import type { FileState, LiveState } from './live-state.js';
import type { FollowedFile } from './scan-folders.js';

/** What importing an export did, as the follower tells it. */
export interface ExportImported {
  conversations: number;
  written: number;
  /** Imported before and unchanged: not read. */
  skipped: boolean;
}

/**
 * Imports one export file into the data folder, as `chatgraph import` does. The data folder
 * composes the import (`importExports`) and gives the follower this (`FollowOptions.importExport`).
 */
export type ImportExport = (file: string) => Promise<ExportImported>;

/** What importing a dropped export needs from the follower. */
export interface ExportContext {
  importExport: ImportExport | undefined;
  state: LiveState;
  states: Map<string, FileState>;
  emit: (event: FollowEvent) => void;
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
    if (!context.importExport)
      throw new Error(
        'exports are imported when following through the data folder (DataFolder.follow)',
      );
    const imported = await context.importExport(file.path);
    context.emit({ kind: 'export', file: file.path, ...imported });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    context.emit({
      kind: 'problem',
      file: file.path,
      message: error instanceof NotAnExportError ? `not imported: ${message}` : message,
    });
  }
  const state: FileState = { size: file.size, mtimeMs: file.mtimeMs, kind: 'export' };
  context.state.set(file.path, state);
  context.states.set(file.path, state);
  return { waiting: false, size: file.size };
}
