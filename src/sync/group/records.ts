import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { contentHash } from '../../model/content-hash.js';
import { IMPORTER } from '../../model/version.js';
import {
  signatureBlockSchema,
  storePayload,
  storeSignature,
} from '../../trust/bundle-signature.js';
import { verifyBytes, type SigningKey } from '../../trust/signing-key.js';
import { checksumOfMemories } from '../../trust/store-checksum.js';

/**
 * The group's own files (founder, invites, admissions) are each a PAM memory store of one
 * memory of type `custom` (`custom_type` below), the keys in its `metadata`, signed by PAM §18's
 * signature block: decrypted, each passes `pam validate` like every other file of DIR. The
 * signature covers the memories' checksum (PAM §15), so it covers the metadata too.
 */
export const RECORD_TYPES = {
  founder: 'chatgraph-sync-founder',
  invite: 'chatgraph-sync-invite',
  inviteKey: 'chatgraph-sync-invite-key',
  inviteClosed: 'chatgraph-sync-invite-closed',
  machine: 'chatgraph-machine',
} as const;
export type RecordType = (typeof RECORD_TYPES)[keyof typeof RECORD_TYPES];

/** PAM's timestamps as both official validators read them: UTC, `Z`, no fraction. */
export function pamTime(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export const machineSchema = z.object({
  id: z.string().uuid(),
  name: z.string().min(1),
  recipient: z.string().startsWith('age1'),
  publicKey: z.string().startsWith('z6Mk'),
});

/** What each record type carries in its memory's metadata. */
export const founderMetaSchema = z.object({
  group_id: z.string().uuid(),
  group_recipient: z.string().startsWith('age1'),
  machine: machineSchema,
});
export const inviteMetaSchema = z.object({
  group_id: z.string().uuid(),
  invite_id: z.string().uuid(),
  inviter_id: z.string().uuid(),
  code_public_key: z.string().startsWith('z6Mk'),
  /** The code's age recipient: members seal the closed record to it. */
  code_recipient: z.string().startsWith('age1'),
  expires: z.string(),
  scrypt: z.object({ log_n: z.number().int(), r: z.number().int(), p: z.number().int() }),
});
export const inviteKeyMetaSchema = z.object({
  group_id: z.string().uuid(),
  invite_id: z.string().uuid(),
  founder_public_key: z.string().startsWith('z6Mk'),
  group_identity: z.string().startsWith('AGE-SECRET-KEY-1'),
  expires: z.string(),
});
export const inviteClosedMetaSchema = z.object({
  group_id: z.string().uuid(),
  invite_id: z.string().uuid(),
  reason: z.string(),
});
export const admissionSchema = z.object({
  group_id: z.string().uuid(),
  invite_id: z.string().uuid(),
  machine: machineSchema,
  signed_at: z.string(),
});
export const machineMetaSchema = z.object({
  admission: admissionSchema,
  /** The admission's RFC 8785 form signed by the key derived from the invite's code. */
  code_signature: z.string(),
});

const memorySchema = z
  .object({
    id: z.string(),
    type: z.literal('custom'),
    custom_type: z.string(),
    metadata: z.record(z.unknown()),
  })
  .passthrough();

const recordSchema = z
  .object({
    schema: z.literal('portable-ai-memory'),
    owner: z.object({ id: z.string() }).passthrough(),
    export_id: z.string(),
    export_date: z.string(),
    memories: z.array(memorySchema).length(1),
    integrity: z.object({ checksum: z.string() }).passthrough(),
    signature: signatureBlockSchema,
  })
  .passthrough();

/** A record as written: the PAM memory store's JSON text. */
export function recordText(input: {
  groupId: string;
  type: RecordType;
  content: string;
  metadata: Record<string, unknown>;
  signer: SigningKey;
  now: Date;
}): string {
  const at = pamTime(input.now);
  const memory = {
    id: randomUUID(),
    type: 'custom',
    custom_type: input.type,
    status: 'active',
    content: input.content,
    content_hash: contentHash(input.content),
    tags: ['chatgraph-sync'],
    temporal: { created_at: at },
    provenance: { platform: 'chatgraph', extraction_method: 'manual', extractor: IMPORTER },
    metadata: input.metadata,
  };
  const exportId = randomUUID();
  const checksum = checksumOfMemories([memory]);
  const store = {
    schema: 'portable-ai-memory',
    schema_version: '1.0',
    owner: { id: input.groupId },
    export_id: exportId,
    exported_by: IMPORTER,
    export_date: at,
    export_type: 'full',
    memories: [memory],
    integrity: { canonicalization: 'RFC8785', checksum, total_memories: 1 },
    signature: storeSignature(input.signer, {
      checksum,
      exportId,
      exportDate: at,
      ownerId: input.groupId,
      signedAt: at,
    }),
  };
  return `${JSON.stringify(store, null, 2)}\n`;
}

/** A record read back and its signature checked: who signed it, and what it says. */
export interface VerifiedRecord<T> {
  groupId: string;
  signer: string;
  signedAt: string;
  meta: T;
}

/**
 * Parses a record of `type` and checks its integrity and PAM signature; returns the reason it
 * is refused as a string, or the record.
 */
export function readRecord<T>(
  text: string,
  type: RecordType,
  metaSchema: z.ZodType<T>,
): VerifiedRecord<T> | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'not JSON once opened';
  }
  const parsed = recordSchema.safeParse(json);
  if (!parsed.success) return `not a chatgraph sync record (${parsed.error.issues[0]?.message})`;
  const store = parsed.data;
  const [memory] = store.memories;
  if (memory?.custom_type !== type) return `not a ${type} record`;
  const checksum = checksumOfMemories(store.memories);
  if (store.integrity.checksum !== checksum) return 'changed after signing (checksum differs)';
  const { signature } = store;
  if (signature.algorithm !== 'Ed25519') return `signed with ${signature.algorithm}, not Ed25519`;
  const payload = storePayload({
    checksum,
    exportId: store.export_id,
    exportDate: store.export_date,
    ownerId: store.owner.id,
  });
  if (verifyBytes(signature.public_key, payload, signature.value) !== true)
    return 'its signature does not verify (changed after signing, or not signed by its key)';
  const meta = metaSchema.safeParse(memory.metadata);
  if (!meta.success) return `its ${type} metadata is not as expected`;
  return {
    groupId: store.owner.id,
    signer: signature.public_key,
    signedAt: signature.signed_at,
    meta: meta.data,
  };
}
