import { join } from 'node:path';
import type { Bundle } from '../bundle/bundle.js';
import { z } from 'zod';
import type { ConversationIndexEntry } from '../model/pam.js';

/** A conversation's copy as written: the log it came from, and how recent it is. */
interface Copy {
  source: string;
  /** The checksum of the log's bytes that copy was read from (unknown for an old bundle file). */
  checksum: string | undefined;
  updated: string;
}

// A bundle file's provenance: only what tells which log wrote it.
const Provenance = z.object({
  import_metadata: z
    .object({ source_file: z.string(), source_checksum: z.string() })
    .partial()
    .nullish(),
});

/**
 * Which log's copy of a conversation the followed logs keep, when several logs hold one
 * session id (Claude Code writes a resumed or forked session to another file with the same
 * `sessionId`): as `import` settles the same case, the most recent copy (by its last message)
 * leads, and on a tie the log first in path order. A log's own later copy always replaces its
 * earlier one (it grew, or was rewritten); an older copy from another log only adds the messages
 * the leading copy lacks (see `LiveWriter`), so two logs never rewrite the conversation in turn.
 */
export class SessionOwners {
  private readonly copies = new Map<string, Copy>();

  constructor(private readonly bundle: Bundle) {}

  /** Whether `source`'s copy of the conversation is to be written (and is then the kept one). */
  async takes(
    id: string,
    source: string,
    checksum: string,
    index: ConversationIndexEntry,
    stored: ConversationIndexEntry | undefined,
  ): Promise<boolean> {
    const copy = { source, checksum, updated: updatedOf(index) };
    let kept = this.copies.get(id);
    // A copy newer than the stored one wins whichever log wrote that: no need to read it.
    if (!kept && stored && copy.updated <= updatedOf(stored)) kept = await this.storedCopy(stored);
    if (kept && kept.source !== source && !wins(copy, kept)) {
      this.copies.set(id, kept);
      return false;
    }
    this.copies.set(id, copy);
    return true;
  }

  // The copy in the bundle (a watch started again, an import): read only when it matters.
  private async storedCopy(stored: ConversationIndexEntry): Promise<Copy | undefined> {
    const text =
      (await this.bundle.files
        .readText(join(this.bundle.dir, stored.storage.ref))
        .catch(() => '')) ?? '';
    let meta: z.infer<typeof Provenance>['import_metadata'];
    try {
      meta = Provenance.parse(JSON.parse(text)).import_metadata;
    } catch {
      meta = undefined;
    }
    const source = meta?.source_file;
    // A copy whose provenance cannot be read is replaced, as before this rule.
    return source === undefined
      ? undefined
      : { source, checksum: meta?.source_checksum, updated: updatedOf(stored) };
  }

  /** The log holding the leading copy of a conversation, when its checksum is known. */
  owner(id: string): { displayPath: string; checksum: string } | undefined {
    const kept = this.copies.get(id);
    return kept?.checksum === undefined
      ? undefined
      : { displayPath: kept.source, checksum: kept.checksum };
  }
}

function updatedOf(index: ConversationIndexEntry): string {
  return index.temporal.updated_at ?? index.temporal.created_at;
}

function wins(copy: Copy, kept: Copy): boolean {
  if (copy.updated !== kept.updated) return copy.updated > kept.updated;
  return copy.source < kept.source;
}
