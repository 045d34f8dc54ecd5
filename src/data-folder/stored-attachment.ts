import { createReadStream, existsSync, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { ATTACHMENTS_DIR, attachmentFile } from '../bundle/layout.js';
import { isSealed, onDisk, readDataFileSync } from '../bundle/sealed-files.js';

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
export function storedAttachment(bundle: string, ref: string): StoredAttachment | undefined {
  const path = attachmentFile(
    bundle,
    ref.startsWith(`${ATTACHMENTS_DIR}/`) ? ref : `${ATTACHMENTS_DIR}/${ref}`,
  );
  if (path === undefined) return undefined;
  const file = onDisk(path);
  if (!existsSync(file) || !statSync(file).isFile()) return undefined;
  if (isSealed(path)) {
    const bytes = readDataFileSync(path);
    return { path, size: bytes.length, read: () => Readable.from([bytes]) };
  }
  return { path, size: statSync(file).size, read: () => createReadStream(file) };
}
