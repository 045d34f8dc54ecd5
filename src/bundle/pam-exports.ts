import { z } from 'zod';
import type { Bundle } from './bundle.js';
import { serialize } from './serialize.js';

/*
 * The PAM exports a bundle has taken in (memory stores of other tools, full or incremental) and
 * written out (`export-pam`), by `export_id`: PAM 16.3 merges an incremental export onto the
 * full export its `base_export_id` names, so the bundle remembers which ones it knows. Not part
 * of PAM: a file of chatgraph's beside `memory-store.json` (`layout.pamExports`), which PAM's
 * tools do not read.
 */

const PamExport = z.object({
  export_id: z.string(),
  export_type: z.enum(['full', 'incremental']),
  export_date: z.string().nullable(),
  base_export_id: z.string().nullable(),
  /** `imported`: merged into this bundle; `written`: written out of it by `export-pam`. */
  direction: z.enum(['imported', 'written']),
  /** The file read or written, and when. */
  file: z.string(),
  at: z.string(),
  /** Whose memories it holds (`owner.id`): an increment extends only its own owner's export. */
  owner_id: z.string().optional(),
});

export type PamExport = z.infer<typeof PamExport>;

const PamExports = z.object({ exports: z.array(PamExport) });

/** The PAM exports the bundle knows, oldest first; none when it has no record yet. */
export async function readPamExports(bundle: Bundle): Promise<PamExport[]> {
  const path = bundle.layout.pamExports;
  const text = await bundle.files.readText(path);
  if (text === undefined) return [];
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(
      `${path} is not JSON: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const parsed = PamExports.safeParse(json);
  if (!parsed.success)
    throw new Error(
      `${path} is not chatgraph's record of PAM exports (${parsed.error.issues[0]?.path.join('.') ?? ''}: ${parsed.error.issues[0]?.message ?? 'bad shape'})`,
    );
  return parsed.data.exports;
}

/** Adds exports to the bundle's record (an export already there by id and direction stays once). */
export async function recordPamExports(bundle: Bundle, added: readonly PamExport[]): Promise<void> {
  if (added.length === 0) return;
  const known = await readPamExports(bundle);
  const seen = new Set(known.map((e) => `${e.direction}\u0000${e.export_id}`));
  for (const entry of added)
    if (!seen.has(`${entry.direction}\u0000${entry.export_id}`)) {
      known.push(entry);
      seen.add(`${entry.direction}\u0000${entry.export_id}`);
    }
  await bundle.files.write(bundle.layout.pamExports, serialize({ exports: known }));
}
