import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Bundle } from '../bundle/bundle.js';
import { SEALED_SUFFIX } from '../bundle/sealed-files.js';
import { openRegular } from '../read/regular-file.js';
import { unsignedFiles } from './bundle-signature.js';

/**
 * Every file of the bundle a manifest covers, bundle-relative with `/`, sorted. An encrypted
 * folder's are named as their plain files (`X` for `X.age`), so a manifest holds the same
 * names and digests whether the bundle is encrypted or not.
 */
export async function bundleFiles(bundle: Bundle): Promise<string[]> {
  const found: string[] = [];
  const sealed = bundle.files.sealed;
  const unsigned = unsignedFiles(bundle.layout);
  async function walk(dir: string, prefix: string): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        await walk(join(dir, entry.name), `${prefix}${entry.name}/`);
        continue;
      }
      // A sealed folder's other files are temporaries of a writer cut off.
      if (sealed && !entry.name.endsWith(SEALED_SUFFIX)) continue;
      const name = sealed ? entry.name.slice(0, -SEALED_SUFFIX.length) : entry.name;
      if (!(prefix === '' && unsigned.has(name))) found.push(`${prefix}${name}`);
    }
  }
  await walk(bundle.dir, '');
  return found.sort();
}

/**
 * `sha256:<hex>` of a bundle file's content, streamed (an attachment may be large) unless sealed;
 * a regular file only (a FIFO or a link to a device is a `NotARegularFileError`, never read).
 */
export async function fileDigest(bundle: Bundle, path: string): Promise<string> {
  const hash = createHash('sha256');
  if (bundle.files.sealed) hash.update(await bundle.files.read(path));
  else {
    const handle = await openRegular(path);
    // The stream closes the handle when it ends or fails.
    await pipeline(handle.createReadStream(), hash);
  }
  return `sha256:${hash.digest('hex')}`;
}
