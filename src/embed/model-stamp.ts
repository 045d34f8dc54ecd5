/**
 * Which of a model's files were hashed and matched their manifest, as they were then: a stamp
 * beside them (issue 46). Hashing the 90–500 MB model.onnx at every open cost a search by
 * meaning about a third of a second; a file whose identity is the stamp's is not hashed again.
 *
 * Why this is still safe: the stamp keeps each file's size, modification and status-change
 * times (nanoseconds) and inode. Any write to a file's bytes moves its mtime and ctime, and
 * nothing in user space can set a ctime back (`touch -d` sets it to now); a file replaced (a new
 * download renamed over it, a copy) has another inode. A file that still matches all of them
 * holds the bytes that were hashed. What a stamp cannot see is damage no write made (bits
 * rotting on the disk): that is what the hash at fetch and `model fetch --force` are for. The
 * hash never guarded against someone who can write the folder: they can rewrite the manifest.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../bundle/atomic-write.js';

export const STAMP_FILE = 'verified.json';

const Stamp = z.object({
  files: z.array(
    z.object({
      name: z.string(),
      sha256: z.string(),
      size: z.string(),
      mtimeNs: z.string(),
      ctimeNs: z.string(),
      ino: z.string(),
    }),
  ),
});
type StampedFile = z.infer<typeof Stamp>['files'][number];

function identity(path: string): Omit<StampedFile, 'name' | 'sha256'> {
  const stat = statSync(path, { bigint: true });
  return {
    size: String(stat.size),
    mtimeNs: String(stat.mtimeNs),
    ctimeNs: String(stat.ctimeNs),
    ino: String(stat.ino),
  };
}

function readStamp(folder: string): StampedFile[] {
  try {
    const parsed = Stamp.safeParse(JSON.parse(readFileSync(join(folder, STAMP_FILE), 'utf8')));
    return parsed.success ? parsed.data.files : [];
  } catch {
    return [];
  }
}

/**
 * Whether the file (in `folder`, by name) is, by its identity, the one stamped with `sha256`:
 * then it need not be hashed again.
 */
export function stampedAs(folder: string, name: string, sha256: string): boolean {
  const stamped = readStamp(folder).find((file) => file.name === name);
  if (!stamped || stamped.sha256 !== sha256) return false;
  const now = identity(join(folder, name));
  return (
    now.size === stamped.size &&
    now.mtimeNs === stamped.mtimeNs &&
    now.ctimeNs === stamped.ctimeNs &&
    now.ino === stamped.ino
  );
}

/**
 * Stamps the files just hashed (each matched `sha256`). A folder that cannot be written (shared,
 * read-only) keeps no stamp: its files are hashed at each open, as before.
 */
export async function stamp(
  folder: string,
  files: readonly { name: string; sha256: string }[],
): Promise<void> {
  try {
    const stamped = files.map(({ name, sha256 }) => ({
      name,
      sha256,
      ...identity(join(folder, name)),
    }));
    await writeFileAtomic(
      join(folder, STAMP_FILE),
      `${JSON.stringify({ files: stamped }, null, 2)}\n`,
    );
  } catch {
    // Not writable: verified the long way next time.
  }
}
