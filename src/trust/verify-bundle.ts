import { join, relative } from 'node:path';
import { Bundle } from '../bundle/bundle.js';
import { bundleLayout } from '../folder/layout.js';
import { plural } from '../model/plural.js';
import { bundleFiles, fileDigest } from './bundle-files.js';
import { NotARegularFileError } from '../read/regular-file.js';
import {
  manifestPayload,
  manifestSchema,
  memoryDigest,
  storePayload,
  type Manifest,
  type SignatureBlock,
  type SignedStore,
} from './bundle-signature.js';
import { didKeyUrl } from './did-key.js';
import { readStoreFile } from './read-store-file.js';
import { verifyBytes } from './signing-key.js';
import { checksumOfMemories } from './store-checksum.js';

/** One thing that does not match its signature: the file, the JSON path in it, and what. */
export interface VerifyProblem {
  file: string;
  path?: string;
  message: string;
}

/** What {@link verifyBundle} found. */
export interface VerifyReport {
  bundle: string;
  /**
   * `verified`: both signatures hold, nothing changed, and the signer is a key trusted (when
   * keys to trust were given); `untrusted`: all that but by a key not among them; `unsigned`:
   * none to check.
   */
  verdict: 'verified' | 'untrusted' | 'unsigned' | 'failed';
  /**
   * The signer, as the signature names it; `trusted` when keys to trust were given, whether it
   * is one of them (anyone can re-sign an edited bundle with a key of their own).
   */
  signer?: { publicKey: string; keyId?: string; signedAt: string; trusted?: boolean };
  /**
   * A bundle signed once and written again since (an import, a remember): when it was written
   * (`export_date`), and when it had been signed.
   */
  unsignedSince?: { writtenAt: string; signedAt: string };
  problems: VerifyProblem[];
  /** How many files and memories were checked against the manifest. */
  checked: { files: number; memories: number };
}

async function readManifest(
  bundle: Bundle,
  problems: VerifyProblem[],
): Promise<Manifest | undefined> {
  const file = bundle.layout.signatureManifest;
  const text = await bundle.files.readText(file);
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    problems.push({ file, message: 'is not JSON' });
    return undefined;
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    problems.push({
      file,
      path: `$.${issue?.path.join('.') ?? ''}`,
      message: `is not a chatgraph manifest (${issue?.message ?? 'bad shape'})`,
    });
    return undefined;
  }
  return parsed.data;
}

/**
 * Verifies the signatures of the PAM bundle in `dir`, read as plain files (a bundle written or
 * copied elsewhere; a data folder verifies its own, sealed or not, with `DataFolder.verify`).
 */
export function verifyBundle(dir: string, options: VerifyOptions = {}): Promise<VerifyReport> {
  return verifyBundleOf(new Bundle(bundleLayout(dir)), options);
}

/**
 * Verifies a bundle's signatures: PAM §18's over `memory-store.json` (its checksum recomputed
 * from the memories, and the Ed25519 signature over §18.3's payload), and chatgraph's manifest
 * (its own signature by the same key, then every file's and memory's sha256), naming each file
 * and memory that changed, was added or went missing.
 */
export async function verifyBundleOf(
  bundle: Bundle,
  options: VerifyOptions = {},
): Promise<VerifyReport> {
  const { layout } = bundle;
  const storeFile = layout.memoryStore;
  const problems: VerifyProblem[] = [];
  const report: VerifyReport = {
    bundle: bundle.dir,
    verdict: 'failed',
    problems,
    checked: { files: 0, memories: 0 },
  };
  const { store } = await readStoreFile(bundle);
  const manifest = await readManifest(bundle, problems);
  const signature = store.signature;
  if (!signature) {
    report.verdict = problems.length > 0 ? 'failed' : 'unsigned';
    if (manifest)
      report.unsignedSince = { writtenAt: store.export_date ?? '', signedAt: manifest.signed_at };
    return report;
  }
  const trusted = options.trust?.some((key) => samePublicKey(key, signature.public_key));
  report.signer = {
    publicKey: signature.public_key,
    ...(signature.key_id ? { keyId: signature.key_id } : {}),
    signedAt: signature.signed_at,
    ...(trusted !== undefined ? { trusted } : {}),
  };
  const at = (path: string, message: string): void => {
    problems.push({ file: storeFile, path, message });
  };

  checkStoreSignature(store, signature, at);
  const exportId = store.export_id;

  const journal = layout.memoryJournal;
  if (bundle.files.exists(journal))
    problems.push({
      file: journal,
      message: 'memories changed after signing (the journal is not covered by the signature)',
    });
  if (!manifest) {
    // Without the manifest only the memories are signed: any other file of the bundle (a
    // conversation, an attachment, one added since) could say anything.
    const uncovered = (await bundleFiles(bundle)).filter((f) => f !== inBundle(layout, storeFile));
    if (uncovered.length > 0 && !problems.some((p) => p.file === layout.signatureManifest))
      problems.push({
        file: layout.signatureManifest,
        message: `is missing: ${plural(uncovered.length, 'file')} of the bundle (${uncovered.slice(0, 3).join(', ')}${uncovered.length > 3 ? ', …' : ''}) covered by no signature`,
      });
  } else
    await checkManifest(bundle, manifest, signature.public_key, exportId, store, problems, report);
  report.verdict = problems.length > 0 ? 'failed' : trusted === false ? 'untrusted' : 'verified';
  return report;
}

/** What {@link verifyBundle} trusts. */
export interface VerifyOptions {
  /**
   * The public keys (multibase `z6Mk…` or did:key URLs) whose signature is trusted; a bundle
   * signed by another is `untrusted`, however well its signatures hold. Absent: the signature
   * is checked, and whose key it is is left to the reader.
   */
  trust?: readonly string[];
}

/** Whether two ways of writing an Ed25519 public key (`z6Mk…`, `did:key:z6Mk…#z6Mk…`) agree. */
function samePublicKey(given: string, signer: string): boolean {
  const bare = given
    .trim()
    .replace(/^did:key:/, '')
    .replace(/#.*$/, '');
  return bare === signer;
}

/** PAM §18 and §15 on `memory-store.json`: the block's form, the checksum, the signature. */
function checkStoreSignature(
  store: SignedStore,
  signature: SignatureBlock,
  at: (path: string, message: string) => void,
): void {
  if (signature.algorithm !== 'Ed25519')
    at(
      '$.signature.algorithm',
      `${signature.algorithm} signatures are not checked here, only Ed25519`,
    );
  if (signature.key_id && signature.key_id !== didKeyUrl(signature.public_key))
    at(
      '$.signature.key_id',
      `is not the did:key URL of public_key (${didKeyUrl(signature.public_key)})`,
    );
  const exportId = store.export_id;
  const exportDate = store.export_date;
  if (!exportId) at('$.export_id', 'a signed store needs an export_id (PAM §18)');
  if (!exportDate) at('$.export_date', 'a signed store needs an export_date (PAM §18)');
  else if (!(Date.parse(signature.signed_at) >= Date.parse(exportDate)))
    at('$.signature.signed_at', `is before export_date ${exportDate} (PAM §18)`);
  const checksum = checksumOfMemories(store.memories);
  if (store.integrity?.checksum !== checksum)
    at(
      '$.integrity.checksum',
      `the memories' checksum is ${checksum}, not ${store.integrity?.checksum ?? 'absent'}: the memories changed after the checksum was written (PAM §15)`,
    );
  if (
    typeof store.integrity?.total_memories === 'number' &&
    store.integrity.total_memories !== store.memories.length
  )
    at(
      '$.integrity.total_memories',
      `says ${store.integrity.total_memories}, the file holds ${store.memories.length} (PAM §15)`,
    );
  if (exportId && exportDate && store.integrity?.checksum) {
    const payload = storePayload({
      checksum: store.integrity.checksum,
      exportId,
      exportDate,
      ownerId: store.owner.id,
    });
    const good = verifyBytes(signature.public_key, payload, signature.value);
    if (good === undefined)
      at('$.signature', 'public_key is not a z6Mk… Ed25519 key, or value is not base64url');
    else if (!good)
      at(
        '$.signature.value',
        'the signature does not match {checksum, export_id, export_date, owner_id} (PAM §18.3)',
      );
  }
}

/** A bundle file's path as a manifest names it (bundle-relative, with `/`). */
function inBundle(layout: { dir: string }, file: string): string {
  return relative(layout.dir, file).split(/[\\/]/).join('/');
}

/** How a signed file differs from its digest in the manifest (undefined: it does not). */
async function fileChange(
  bundle: Bundle,
  path: string,
  digest: string,
): Promise<string | undefined> {
  const now = await fileDigest(bundle, path).catch((error: unknown) => {
    if (error instanceof NotARegularFileError) return `${error.kind}, not a regular file`;
    throw error;
  });
  if (!now.startsWith('sha256:')) return `was signed as a file and is now ${now}`;
  return now !== digest ? 'changed after signing (its sha256 differs)' : undefined;
}

async function checkManifest(
  bundle: Bundle,
  manifest: Manifest,
  publicKey: string,
  exportId: string | null | undefined,
  store: { memories: { id: string }[] },
  problems: VerifyProblem[],
  report: VerifyReport,
): Promise<void> {
  const { layout } = bundle;
  const file = layout.signatureManifest;
  if (manifest.signature.public_key !== publicKey)
    problems.push({
      file,
      path: '$.signature.public_key',
      message: 'is not the key that signed memory-store.json',
    });
  const { signature, ...unsigned } = manifest;
  if (verifyBytes(signature.public_key, manifestPayload(unsigned), signature.value) !== true) {
    problems.push({
      file,
      path: '$.signature.value',
      message: "the manifest's signature does not match it: it was changed after signing",
    });
    return;
  }
  if (manifest.export_id !== exportId)
    problems.push({
      file,
      path: '$.export_id',
      message: `signed ${manifest.export_id}, memory-store.json is ${exportId ?? 'without one'}`,
    });
  const present = new Set(await bundleFiles(bundle));
  for (const [ref, digest] of Object.entries(manifest.files)) {
    const path = join(bundle.dir, ref);
    if (!present.has(ref)) {
      problems.push({ file: path, message: 'was signed and is missing' });
      continue;
    }
    present.delete(ref);
    report.checked.files++;
    const changed = await fileChange(bundle, path, digest);
    if (changed !== undefined) problems.push({ file: path, message: changed });
  }
  for (const ref of present)
    if (ref !== inBundle(layout, layout.memoryJournal))
      problems.push({ file: join(bundle.dir, ref), message: 'was added after signing' });
  const storeFile = layout.memoryStore;
  const memories = new Map(store.memories.map((m) => [m.id, m]));
  for (const [id, digest] of Object.entries(manifest.memories)) {
    const memory = memories.get(id);
    memories.delete(id);
    if (!memory) {
      problems.push({
        file: storeFile,
        path: `$.memories[?(@.id=='${id}')]`,
        message: `memory ${id} was signed and is missing`,
      });
      continue;
    }
    report.checked.memories++;
    if (memoryDigest(memory) !== digest)
      problems.push({
        file: storeFile,
        path: `$.memories[?(@.id=='${id}')]`,
        message: `memory ${id} changed after signing`,
      });
  }
  for (const id of memories.keys())
    problems.push({
      file: storeFile,
      path: `$.memories[?(@.id=='${id}')]`,
      message: `memory ${id} was added after signing`,
    });
}
