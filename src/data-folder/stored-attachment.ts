import { createReadStream, existsSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import type { Bundle } from '../bundle/bundle.js';
import { ATTACHMENTS_DIR } from '../model/bundle-refs.js';

/** An attachment file of the bundle, ready to send. */
export interface StoredAttachment {
  /** Its plain path (its name tells its type). */
  path: string;
  size: number;
  read(): Readable;
}

/**
 * The bundle's attachment at `ref` (with or without its `attachments/` prefix), or undefined
 * when there is none or the ref points outside the attachments folder. An encrypted folder's
 * is opened in memory (an age file cannot be streamed out as it is); a plain one is streamed.
 */
export function storedAttachment(bundle: Bundle, ref: string): StoredAttachment | undefined {
  const path = bundle.layout.attachment(
    ref.startsWith(`${ATTACHMENTS_DIR}/`) ? ref : `${ATTACHMENTS_DIR}/${ref}`,
  );
  if (path === undefined) return undefined;
  const { files } = bundle;
  const file = files.onDisk(path);
  if (!existsSync(file) || !statSync(file).isFile()) return undefined;
  if (files.sealed) {
    const bytes = files.readSync(path);
    return { path, size: bytes.length, read: () => Readable.from([bytes]) };
  }
  return { path, size: statSync(file).size, read: () => createReadStream(file) };
}
