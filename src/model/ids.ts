import { createHash } from 'node:crypto';

/** The namespace of every chatgraph UUID v5 (itself a v5 of the URL namespace and "chatgraph"). */
const NAMESPACE = Buffer.from('6ba7b8119dad11d180b400c04fd430c8', 'hex');
const CHATGRAPH_NAMESPACE = uuidBytesV5(NAMESPACE, 'https://chatgraph.dev/ids');

function uuidBytesV5(namespace: Buffer, name: string): Buffer {
  const hash = createHash('sha1').update(namespace).update(name, 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x50;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  return bytes;
}

function formatUuid(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/** A deterministic UUID v5 of the given name parts, so the same export always gets the same ids. */
export function stableId(...parts: string[]): string {
  return formatUuid(uuidBytesV5(CHATGRAPH_NAMESPACE, parts.join('\u0000')));
}
