import { z } from 'zod';
import { contentHash } from '../model/content-hash.js';
import { checksumOfMemories } from '../trust/store-checksum.js';
import { storePayload } from '../trust/bundle-signature.js';
import { verifyBytes } from '../trust/signing-key.js';
import type { FileFindings } from './finding.js';

const text = z.string().nullish();

// What the deep rules read; the schema check (when the schemas are there) judges the shape,
// so this reads leniently: a field of the wrong type is left to it, never thrown on.
const memorySchema = z
  .object({
    id: z.string(),
    type: z.string().nullish(),
    custom_type: z.unknown(),
    status: text,
    content: z.string(),
    content_hash: text,
    temporal: z
      .object({
        created_at: text,
        updated_at: text,
        valid_from: text,
        valid_until: text,
        superseded_by: text,
      })
      .passthrough()
      .nullish(),
    provenance: z.object({ conversation_ref: text }).passthrough().nullish(),
    confidence: z.object({ last_reinforced: text }).passthrough().nullish(),
  })
  .passthrough();

export const storeSchema = z
  .object({
    export_id: text,
    export_date: text,
    owner: z.object({ id: z.string() }).passthrough(),
    memories: z.array(memorySchema),
    relations: z
      .array(z.object({ id: z.string(), from: z.string(), to: z.string() }).passthrough())
      .nullish(),
    conversations_index: z
      .array(
        z
          .object({
            id: z.string(),
            platform: text,
            title: text,
            message_count: z.number().nullish(),
            tags: z.array(z.string()).nullish(),
            derived_memories: z.array(z.string()).nullish(),
            temporal: z.object({ created_at: text, updated_at: text }).passthrough().nullish(),
            storage: z.object({ type: z.string(), ref: z.string() }).passthrough().nullish(),
          })
          .passthrough(),
      )
      .nullish(),
    integrity: z
      .object({ checksum: z.string(), total_memories: z.number() })
      .passthrough()
      .nullish(),
    signature: z
      .object({
        algorithm: z.string(),
        public_key: z.string(),
        value: z.string(),
        signed_at: z.string(),
        key_id: text,
      })
      .passthrough()
      .nullish(),
  })
  .passthrough();

export type StoreDocument = z.infer<typeof storeSchema>;

/** `a` is before `b`, both times (a time that does not parse is the schema's to judge). */
function before(a: string | null | undefined, b: string | null | undefined): boolean {
  if (!a || !b) return false;
  const x = Date.parse(a);
  const y = Date.parse(b);
  return Number.isFinite(x) && Number.isFinite(y) && x < y;
}

/**
 * The deep rules of a memory store, as the official validator (`pam validate`) names them:
 * content-hash, integrity-total, integrity-checksum, id-unique, xref-relation,
 * xref-conversation, xref-superseded, xref-derived, xref-bidirectional, temporal, custom-type,
 * status; and signature (PAM §18), which it does not check.
 */
export function checkMemoryStore(store: StoreDocument, at: FileFindings): void {
  checkMemories(store, at);
  checkIntegrity(store, at);
  checkReferences(store, at);
  checkSignature(store, at);
}

function checkMemories(store: StoreDocument, at: FileFindings): void {
  const seen = new Set<string>();
  store.memories.forEach((memory, i) => {
    const path = `$.memories[${i}]`;
    if (seen.has(memory.id))
      at.error(`${path}.id`, 'id-unique', `duplicate memory id '${memory.id}'`);
    seen.add(memory.id);
    const computed = contentHash(memory.content);
    if (memory.content_hash !== computed)
      at.error(
        `${path}.content_hash`,
        'content-hash',
        `memory '${memory.id}': expected ${computed}, declared ${memory.content_hash ?? 'none'} (PAM §6)`,
      );
    const t = memory.temporal;
    if (before(t?.updated_at, t?.created_at))
      at.error(
        `${path}.temporal.updated_at`,
        'temporal',
        `memory '${memory.id}': updated_at is before created_at`,
      );
    if (before(t?.valid_until, t?.valid_from))
      at.error(
        `${path}.temporal.valid_until`,
        'temporal',
        `memory '${memory.id}': valid_until is before valid_from`,
      );
    if (before(memory.confidence?.last_reinforced, t?.created_at))
      at.warning(
        `${path}.confidence.last_reinforced`,
        'temporal',
        `memory '${memory.id}': last_reinforced is before created_at`,
      );
    const custom = memory.custom_type;
    if (memory.type === 'custom' && (typeof custom !== 'string' || custom === ''))
      at.error(
        `${path}.custom_type`,
        'custom-type',
        `memory '${memory.id}': type 'custom' needs a custom_type`,
      );
    if (memory.type !== 'custom' && custom !== null && custom !== undefined)
      at.error(
        `${path}.custom_type`,
        'custom-type',
        `memory '${memory.id}': type '${memory.type ?? ''}' with custom_type ${JSON.stringify(custom)}`,
      );
    const superseded = t?.superseded_by;
    if (memory.status === 'superseded' && !superseded)
      at.warning(
        `${path}.temporal.superseded_by`,
        'status',
        `memory '${memory.id}': status 'superseded' but no superseded_by (PAM §7)`,
      );
    if (superseded && memory.status !== 'superseded')
      at.warning(
        `${path}.status`,
        'status',
        `memory '${memory.id}': superseded_by set but status '${memory.status ?? 'active'}'`,
      );
  });
}

function checkIntegrity(store: StoreDocument, at: FileFindings): void {
  const integrity = store.integrity;
  if (!integrity) return;
  if (integrity.total_memories !== store.memories.length)
    at.error(
      '$.integrity.total_memories',
      'integrity-total',
      `says ${integrity.total_memories}, the file holds ${store.memories.length} (PAM §15)`,
    );
  const computed = checksumOfMemories(store.memories);
  if (integrity.checksum !== computed)
    at.error(
      '$.integrity.checksum',
      'integrity-checksum',
      `declared ${integrity.checksum}, computed ${computed} (PAM §15)`,
    );
}

function checkReferences(store: StoreDocument, at: FileFindings): void {
  const memories = new Set(store.memories.map((m) => m.id));
  const index = store.conversations_index ?? [];
  const conversations = new Set<string>();
  index.forEach((entry, i) => {
    if (conversations.has(entry.id))
      at.error(
        `$.conversations_index[${i}].id`,
        'id-unique',
        `duplicate conversation id '${entry.id}'`,
      );
    conversations.add(entry.id);
    if (before(entry.temporal?.updated_at, entry.temporal?.created_at))
      at.error(
        `$.conversations_index[${i}].temporal.updated_at`,
        'temporal',
        `conversation '${entry.id}': updated_at is before created_at`,
      );
    (entry.derived_memories ?? []).forEach((id, j) => {
      if (!memories.has(id))
        at.error(
          `$.conversations_index[${i}].derived_memories[${j}]`,
          'xref-derived',
          `conversation '${entry.id}': derived memory '${id}' is not in memories`,
        );
    });
  });
  const relations = new Set<string>();
  (store.relations ?? []).forEach((relation, i) => {
    const path = `$.relations[${i}]`;
    if (relations.has(relation.id))
      at.error(`${path}.id`, 'id-unique', `duplicate relation id '${relation.id}'`);
    relations.add(relation.id);
    if (!memories.has(relation.from))
      at.error(
        `${path}.from`,
        'xref-relation',
        `relation '${relation.id}': from '${relation.from}' is not a memory`,
      );
    if (!memories.has(relation.to))
      at.error(
        `${path}.to`,
        'xref-relation',
        `relation '${relation.id}': to '${relation.to}' is not a memory`,
      );
    if (relation.from === relation.to)
      at.warning(path, 'xref-relation', `relation '${relation.id}' relates a memory to itself`);
  });
  const derived = new Map(index.map((e) => [e.id, new Set(e.derived_memories ?? [])]));
  store.memories.forEach((memory, i) => {
    const ref = memory.provenance?.conversation_ref;
    if (ref && conversations.size > 0 && !conversations.has(ref))
      at.error(
        `$.memories[${i}].provenance.conversation_ref`,
        'xref-conversation',
        `memory '${memory.id}': conversation '${ref}' is not in conversations_index (PAM §14)`,
      );
    if (ref && derived.has(ref) && !derived.get(ref)?.has(memory.id))
      at.warning(
        `$.memories[${i}].provenance.conversation_ref`,
        'xref-bidirectional',
        `memory '${memory.id}' names conversation '${ref}', whose derived_memories does not name it`,
      );
    const superseded = memory.temporal?.superseded_by;
    if (superseded && !memories.has(superseded))
      at.error(
        `$.memories[${i}].temporal.superseded_by`,
        'xref-superseded',
        `memory '${memory.id}': superseded_by '${superseded}' is not a memory`,
      );
  });
}

/** PAM §18: a signature present is well formed, not before the export, and (Ed25519) holds. */
function checkSignature(store: StoreDocument, at: FileFindings): void {
  const signature = store.signature;
  if (!signature) return;
  if (store.export_date && before(signature.signed_at, store.export_date))
    at.error(
      '$.signature.signed_at',
      'signature',
      `signed_at is before export_date ${store.export_date} (PAM §18)`,
    );
  if (!/^[A-Za-z0-9_-]+={0,2}$/.test(signature.value))
    at.error('$.signature.value', 'signature', 'is not base64url (RFC 4648 §5, PAM §18)');
  if (
    signature.algorithm !== 'Ed25519' ||
    !store.integrity ||
    !store.export_id ||
    !store.export_date
  )
    return;
  const payload = storePayload({
    checksum: store.integrity.checksum,
    exportId: store.export_id,
    exportDate: store.export_date,
    ownerId: store.owner.id,
  });
  const good = verifyBytes(signature.public_key, payload, signature.value);
  if (good === undefined)
    at.warning(
      '$.signature.public_key',
      'signature',
      'not a z6Mk… Ed25519 key: the signature was not checked',
    );
  else if (!good)
    at.error(
      '$.signature.value',
      'signature',
      'does not verify over {checksum, export_id, export_date, owner_id} (PAM §18.3)',
    );
}
