import { z } from 'zod';
import type { Folder } from './folder.js';

/** One deleted conversation: its ids and when it was deleted (never its text or title). */
export interface Tombstone {
  /** chatgraph's id (the bundle's conversation id). */
  id: string;
  /** The platform's conversation id, when known. */
  platformId: string | null;
  source: string | null;
  deletedAt: string;
}

const TombstoneFile = z.object({
  deleted: z.array(
    z.object({
      id: z.string(),
      platformId: z.string().nullable(),
      source: z.string().nullable(),
      deletedAt: z.string(),
    }),
  ),
});

/**
 * The conversations deleted in a data folder (none when it has no `deleted.json`). A file
 * that cannot be read as the list is an error, not an empty list: deleted conversations must
 * not come back because the list was damaged.
 */
export async function readTombstones(folder: Folder): Promise<Tombstone[]> {
  const file = folder.layout.deleted;
  const text = await folder.files.readText(file);
  if (text === undefined) return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const list = TombstoneFile.safeParse(parsed);
  if (!list.success)
    throw new Error(
      `${file} is not a list of deleted conversations: fix or remove it (it keeps deleted conversations from being imported again)`,
    );
  return list.data.deleted;
}

/** Writes the list (sorted by id, so the file is the same whatever the order of deletion). */
export async function writeTombstones(folder: Folder, tombstones: Tombstone[]): Promise<void> {
  const deleted = [...tombstones].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  await folder.files.write(folder.layout.deleted, `${JSON.stringify({ deleted }, null, 2)}\n`);
}
