// Vectors for a benchmark's folder without embedding it (a million messages take days to embed
// here): a search loads and scans them as it would real ones, only their meaning is nonsense.
// Shared by cold-search.mjs, hybrid-latency.mjs and recall.mjs.
import Database from 'better-sqlite3-multiple-ciphers';

/** A seeded normal distribution (Box–Muller over a linear congruential generator). */
export function seededGaussian(seed) {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return () => Math.sqrt(-2 * Math.log(random() + 1e-12)) * Math.cos(2 * Math.PI * random());
}

/** `dimensions` draws of `gaussian` added to `base` (none: 0), scaled to unit length. */
export function unitVector(dimensions, gaussian, base, spread = 1) {
  const v = new Float32Array(dimensions);
  let norm = 0;
  for (let d = 0; d < dimensions; d++) {
    const x = (base?.[d] ?? 0) + gaussian() * spread;
    v[d] = x;
    norm += x * x;
  }
  norm = Math.sqrt(norm);
  return v.map((x) => x / norm);
}

/**
 * Files `chunks` vectors for every message of the store at `file` under `model` (the vectors
 * there before are dropped), each from `vectorFor(index, messageId)`, a conversation at a time.
 * @param {{ vectors: { reset(model: { id: string, dimensions: number }): Promise<void>, write(owner: string, hash: string, units: object[]): Promise<void> } }} store
 * @param {string} file
 * @param {{ id: string, dimensions: number }} model
 * @param {(index: number, messageId: string) => Float32Array} vectorFor
 */
export async function fillNoiseVectors(store, file, model, vectorFor, chunks = 1) {
  const db = new Database(file, { readonly: true });
  const sources = new Map(
    /** @type {[string, string][]} */ (
      db.prepare(`SELECT id, source FROM "Conversation"`).raw().all()
    ),
  );
  const rows = db
    .prepare(`SELECT owner, id, role, created_at FROM "Message" ORDER BY owner`)
    .raw()
    .iterate();
  await store.vectors.reset(model);
  let owner;
  /** @type {object[]} */
  let units = [];
  let index = 0;
  const flush = async () => {
    if (owner !== undefined) await store.vectors.write(owner, 'bench', units);
    units = [];
  };
  for (const [
    rowOwner = '',
    id = '',
    role = '',
    createdAt = '',
  ] of /** @type {Iterable<string[]>} */ (rows)) {
    if (rowOwner !== owner) {
      await flush();
      owner = rowOwner;
    }
    for (let chunk = 0; chunk < chunks; chunk++)
      units.push({
        nodeId: id,
        kind: 'message',
        messageId: id,
        source: sources.get(rowOwner) ?? '',
        role,
        createdAt,
        chunk,
        start: 0,
        end: 0,
        textHash: '',
        vector: vectorFor(index++, id),
      });
  }
  await flush();
  db.close();
}
