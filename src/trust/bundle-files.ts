import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { UNSIGNED_FILES } from './bundle-signature.js';

/** Every file of the bundle a manifest covers, bundle-relative with `/`, sorted. */
export async function bundleFiles(bundle: string): Promise<string[]> {
  const found: string[] = [];
  async function walk(dir: string, prefix: string): Promise<void> {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const ref = `${prefix}${entry.name}`;
      if (entry.isDirectory()) await walk(join(dir, entry.name), `${ref}/`);
      else if (!(prefix === '' && UNSIGNED_FILES.has(entry.name))) found.push(ref);
    }
  }
  await walk(bundle, '');
  return found.sort();
}

/** `sha256:<hex>` of a file, streamed (an attachment may be large). */
export async function fileDigest(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return `sha256:${hash.digest('hex')}`;
}
