import type { BundleLayout } from './bundle-layout.js';
import { JournalSeen } from './memory-journal.js';
import { StoreSeen } from './read-memory-store.js';
import { SealedFiles } from './sealed-files.js';

/**
 * A PAM bundle opened: where its files are, the door they are read and written through (its
 * folder's, sealed when the folder is encrypted), and what a long-lived reader keeps of it
 * between reads (the memory store parsed last, how far its journal was read). A data folder's
 * handle holds its bundle's; a bundle written or read elsewhere (`convert --out`, a PAM bundle
 * to verify) is opened with a plain door of its own.
 */
export class Bundle {
  /** What was last read of the memory journal (a server reads only what was appended since). */
  readonly journalSeen = new JournalSeen();
  /** The memory store parsed last (parsed again only when a write replaced the file). */
  readonly storeSeen = new StoreSeen();

  constructor(
    readonly layout: BundleLayout,
    readonly files: SealedFiles = new SealedFiles(),
  ) {}

  /** The bundle folder. */
  get dir(): string {
    return this.layout.dir;
  }
}
