import { z } from 'zod/v4';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Conversation, ConversationIndexEntry } from '../model/pam.js';
import type { Bundle } from './bundle.js';
import { toIndexEntry } from './memory-store.js';
import { plural } from '../model/plural.js';
import { conversationSchema, providerInfoSchema } from '../model/pam-conversation.js';

// What indexing a conversation file reads of it (the rest is not looked at): the PAM
// conversation's fields (model/pam-conversation.ts), its messages only counted.
const IndexedFields = conversationSchema
  .pick({ id: true, title: true, temporal: true, tags: true })
  .extend({
    provider: providerInfoSchema.pick({ name: true }).loose(),
    messages: z.array(z.unknown()),
  });

/** What {@link repairIndex} changed in a bundle's conversation index. */
export interface IndexRepair {
  /** Conversation files that had no index entry (now indexed). */
  added: number;
  /** Index entries whose file was missing (now dropped). */
  removed: number;
  /** Conversation files that could not be read as JSON (left out of the index). */
  unreadable: string[];
}

/**
 * Makes a bundle's conversation index agree with its conversation files: a file the index
 * lacks (a writer that died, or lost a race, before writing `memory-store.json`) is indexed
 * from the file itself, and an entry whose file is gone is dropped. The files are the record.
 */
export async function repairIndex(
  bundle: Bundle,
  index: Map<string, ConversationIndexEntry>,
): Promise<IndexRepair> {
  const names = await bundle.files.names(bundle.layout.conversations);
  const ids = new Set(names.filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -5)));
  const repair: IndexRepair = { added: 0, removed: 0, unreadable: [] };
  for (const id of index.keys()) {
    if (!ids.has(id)) {
      index.delete(id);
      repair.removed++;
    }
  }
  for (const id of ids) {
    if (index.has(id)) continue;
    const file = bundle.layout.conversation(id);
    try {
      const fields = IndexedFields.parse(
        JSON.parse((await bundle.files.read(file)).toString('utf8')),
      );
      if (fields.id !== id) throw new Error('its id is not its file name');
      // toIndexEntry reads only the fields checked above.
      index.set(id, toIndexEntry(fields as unknown as Conversation));
      repair.added++;
    } catch {
      repair.unreadable.push(file);
    }
  }
  return repair;
}

/** The diagnostics that report a repair (none when the index already agreed). */
export function repairDiagnostics(repair: IndexRepair, bundle: Bundle): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  if (repair.added > 0 || repair.removed > 0) {
    diagnostics.push({
      level: 'warning',
      code: 'bundle-index-repaired',
      message: `the bundle's conversation index disagreed with its files (an earlier writer was cut off): ${plural(repair.added, 'file')} indexed again, ${plural(repair.removed, 'entry', 'entries')} without a file dropped`,
      file: bundle.layout.memoryStore,
    });
  }
  for (const file of repair.unreadable) {
    diagnostics.push({
      level: 'warning',
      code: 'bundle-file-unreadable',
      message:
        'this conversation file is not a readable PAM conversation and is left out of the index',
      file,
    });
  }
  return diagnostics;
}
