import { basename } from 'node:path';
import canonicalize from 'canonicalize';
import { z } from 'zod';
import type { BundleLayout } from '../bundle/bundle-layout.js';
import { sha256 } from '../model/content-hash.js';
import { signBytes, type SigningKey } from './signing-key.js';

/**
 * Files a manifest leaves out, by their names at the top of the bundle: itself (chatgraph's
 * manifest, our extension to PAM, docs/pam-trust.md), the embeddings file, which is derived
 * (the memories' vectors, made again from `content`, PAM §12) and rewritten by `chatgraph
 * embed`, and the record of PAM exports taken in and written, which `export-pam` adds to
 * without changing what the bundle holds.
 */
export function unsignedFiles(layout: BundleLayout): ReadonlySet<string> {
  return new Set(
    [layout.signatureManifest, layout.embeddings, layout.pamExports].map((f) => basename(f)),
  );
}

/** PAM §18's `signature` block. */
export const signatureBlockSchema = z
  .object({
    algorithm: z.string(),
    public_key: z.string(),
    value: z.string(),
    signed_at: z.string(),
    key_id: z.string().nullish(),
  })
  .passthrough();

export type SignatureBlock = z.infer<typeof signatureBlockSchema>;

/** What signing and verifying read of `memory-store.json`; the rest is kept as written. */
export const signedStoreSchema = z
  .object({
    export_id: z.string().nullish(),
    export_date: z.string().nullish(),
    owner: z.object({ id: z.string() }).passthrough(),
    memories: z.array(z.object({ id: z.string() }).passthrough()),
    integrity: z
      .object({ checksum: z.string(), total_memories: z.number().nullish() })
      .passthrough()
      .nullish(),
    signature: signatureBlockSchema.nullish(),
  })
  .passthrough();

export type SignedStore = z.infer<typeof signedStoreSchema>;

function canonical(value: unknown): string {
  const text = canonicalize(value);
  if (text === undefined) throw new Error('nothing to canonicalize');
  return text;
}

/** The bytes PAM §18.3 signs: the RFC 8785 form of `{checksum, export_id, export_date, owner_id}`. */
export function storePayload(input: {
  checksum: string;
  exportId: string;
  exportDate: string;
  ownerId: string;
}): string {
  return canonical({
    checksum: input.checksum,
    export_id: input.exportId,
    export_date: input.exportDate,
    owner_id: input.ownerId,
  });
}

/**
 * A memory store's PAM §18 signature block: `key`'s signature over {@link storePayload}. What a
 * bundle's `sign`, a sync export and a sync group's record each carry.
 */
export function storeSignature(
  key: SigningKey,
  input: Parameters<typeof storePayload>[0] & { signedAt: string },
): SignatureBlock {
  const { signedAt, ...payload } = input;
  return {
    algorithm: 'Ed25519',
    public_key: key.publicKey,
    value: signBytes(key, storePayload(payload)),
    signed_at: signedAt,
    key_id: key.keyId,
  };
}

/** The RFC 8785 checksum of one memory, as the manifest lists it (to name a changed one). */
export function memoryDigest(memory: unknown): string {
  return sha256(canonical(memory));
}

/**
 * chatgraph's manifest: the sha256 of every bundle file but {@link UNSIGNED_FILES}, and of
 * every memory by id, signed (over its RFC 8785 form without `signature`) by the key that
 * signed `memory-store.json`. PAM's own signature covers the memories only; this covers the
 * conversations and attachments too.
 */
/**
 * Digests by file or memory id, kept as parsed: `z.record` leaves out a key `__proto__`, which
 * a memory id may be (the manifest then no longer matched its own signature).
 */
const digests = z.custom<Record<string, string>>(
  (value: unknown) =>
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.values(value).every((digest) => typeof digest === 'string'),
  'expected an object of sha256 digests',
);

export const manifestSchema = z.object({
  chatgraph_manifest: z.literal(1),
  export_id: z.string(),
  signed_at: z.string(),
  files: digests,
  memories: digests,
  signature: z.object({
    algorithm: z.literal('Ed25519'),
    public_key: z.string(),
    key_id: z.string(),
    value: z.string(),
  }),
});

export type Manifest = z.infer<typeof manifestSchema>;

/** The bytes a manifest's signature is over. */
export function manifestPayload(manifest: Omit<Manifest, 'signature'>): string {
  return canonical({
    chatgraph_manifest: manifest.chatgraph_manifest,
    export_id: manifest.export_id,
    signed_at: manifest.signed_at,
    files: manifest.files,
    memories: manifest.memories,
  });
}
