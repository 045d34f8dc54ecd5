import { followDocument, type DocumentContext } from './follow-document.js';
import { followExport, type ExportContext } from './follow-export.js';
import { followLog, type LogContext } from './follow-log.js';
import { followStore, type StoreContext } from './follow-store.js';
import type { FollowedFile } from './scan-folders.js';

/** A change waiting its turn: whether its size settled, and whether a side file of it changed. */
export interface Pending {
  settled: boolean;
  sides: boolean;
}

/** What following any kind of file needs: the union of the four ways' contexts. */
export type FileContext = LogContext & DocumentContext & StoreContext & ExportContext;

/**
 * Follows one changed file the way its kind says: a log appended to (`followLog`), a document
 * rewritten (`followDocument`), a SQLite store (`followStore`) or an export dropped in
 * (`followExport`). Says whether it waits for its size to settle (a cut-off last line, a
 * busy store).
 */
export async function followFile(
  file: FollowedFile,
  { settled, sides }: Pending,
  context: FileContext,
): Promise<{ waiting: boolean; size: number }> {
  switch (file.kind) {
    case 'append':
      return followLog(file, settled, context, sides);
    case 'rewrite':
      return followDocument(file, settled, context, sides);
    case 'sqlite':
      return followStore(file, context);
    case 'export':
      return followExport(file, settled, context);
  }
}
