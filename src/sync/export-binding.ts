import { createHash } from 'node:crypto';
import canonicalize from 'canonicalize';

/*
 * How one sync export holds together under one signature. PAM §18 signs `{checksum,
 * export_id, export_date, owner_id}`: the memories only. A sync export's `export_id` is made
 * from everything else of its `memory-store.json` (the conversations index, relations,
 * deletions, its base) and, through the index, from each conversation file: each index entry
 * carries a tag `sha256-<hex>` of its file's bytes. So a file edited, replaced or removed, or an
 * index entry changed, no longer matches the signed `export_id`, and the changed file is named.
 */

/** The tag an index entry carries for its conversation file's digest. */
export const DIGEST_TAG = /^sha256-([a-f0-9]{64})$/;

/** The tag an index entry carries when it stands for a deleted conversation. */
export const DELETED_TAG = 'chatgraph-deleted';

export function digestTag(bytes: Uint8Array): string {
  return `sha256-${createHash('sha256').update(bytes).digest('hex')}`;
}

/**
 * The `export_id` of a sync export's `memory-store.json` (any other `export_id` and
 * `signature` left out): a UUID (RFC 9562 version 8, "custom") of the SHA-256 of its RFC 8785
 * form, so PAM's "SHOULD be a UUID" holds.
 */
export function bindingId(store: Record<string, unknown>): string {
  const { export_id: _id, signature: _signature, ...rest } = store;
  const hex = createHash('sha256')
    .update(canonicalize(rest) ?? '')
    .digest('hex');
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
