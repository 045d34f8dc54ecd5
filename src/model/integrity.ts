import canonicalize from 'canonicalize';
import { sha256 } from './content-hash.js';
import type { Memory } from './pam.js';

/** The PAM integrity checksum: SHA-256 of the RFC 8785 form of the memories sorted by id. */
export function integrityChecksum(memories: readonly Pick<Memory, 'id'>[]): string {
  // Code-point order, as Python sorts: localeCompare would differ (pam-notes.md §6.2).
  const sorted = [...memories].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return sha256(canonicalize(sorted) ?? '[]');
}
