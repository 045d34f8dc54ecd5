import canonicalize from 'canonicalize';
import { sha256 } from '../model/content-hash.js';

/**
 * PAM §15's checksum of memories as the file holds them (any shape): sorted by id in
 * code-point order (as Python sorts), RFC 8785, SHA-256.
 */
export function checksumOfMemories(memories: readonly { id: string }[]): string {
  const sorted = [...memories].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return sha256(canonicalize(sorted) ?? '[]');
}
