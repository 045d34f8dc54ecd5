import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { SEALED_SUFFIX, isSealed, readDataFile } from '../bundle/sealed-files.js';
import { openRegular } from '../read/regular-file.js';
import { UNSIGNED_FILES } from './bundle-signature.js';

/**
 * Every file of the bundle a manifest covers, bundle-relative with `/`, sorted. An encrypted
 * folder's are named as their plain files (`X` for `X.age`), so a manifest holds the same
 * names and digests whether the bundle is encrypted or not.
 */
export async function bundleFiles(bundle: string): Promise<string[]> {
  const found: string[] = [];
  async function walk(dir: string, prefix: string): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        await walk(join(dir, entry.name), `${prefix}${entry.name}/`);
        continue;
      }
      const sealed = isSealed(join(dir, entry.name));
      // A sealed folder's other files are temporaries of a writer cut off.
      if (sealed && !entry.name.endsWith(SEALED_SUFFIX)) continue;
      const name = sealed ? entry.name.slice(0, -SEALED_SUFFIX.length) : entry.name;
      if (!(prefix === '' && UNSIGNED_FILES.has(name))) found.push(`${prefix}${name}`);
    }
  }
  await walk(bundle, '');
  return found.sort();
}

/**
 * `sha256:<hex>` of a file's content, streamed (an attachment may be large) unless sealed; a
 * regular file only (a FIFO or a link to a device is a `NotARegularFileError`, never read).
 */
export async function fileDigest(path: string): Promise<string> {
  const hash = createHash('sha256');
  if (isSealed(path)) hash.update(await readDataFile(path));
  else {
    const handle = await openRegular(path);
    // The stream closes the handle when it ends or fails.
    await pipeline(handle.createReadStream(), hash);
  }
  return `sha256:${hash.digest('hex')}`;
}
