import { z } from 'zod';
import type { Bundle } from '../bundle/bundle.js';
import { readMemoryJournal } from '../bundle/memory-journal.js';
import type { SealedFiles } from '../bundle/sealed-files.js';
import { PAM_SCHEMA_VERSION } from '../model/pam.js';
import { textHash } from '../embed/text-hash.js';
import type { MemoryVector } from '../stores/memory-index.js';
import type { EmbeddingCache, TextEmbedder } from './embed-conversations.js';
import { holdsText } from '../model/white-space.js';

const embeddingsSchema = z.object({
  embeddings: z.array(
    z
      .object({
        id: z.string(),
        memory_id: z.string(),
        model: z.string(),
        created_at: z.string(),
        vector: z.array(z.number()).nullable().optional(),
      })
      .passthrough(),
  ),
});

/** One embedding object of PAM's embeddings file. */
export interface MemoryEmbedding {
  id: string;
  memory_id: string;
  model: string;
  dimensions: number;
  created_at: string;
  vector: number[];
}

async function readJson<T>(
  files: SealedFiles,
  file: string,
  schema: z.ZodType<T>,
): Promise<T | undefined> {
  const text = await files.readText(file);
  if (text === undefined) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new Error(
      `${file} is not JSON (${error instanceof Error ? error.message : String(error)})`,
      { cause: error },
    );
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success)
    throw new Error(
      `${file} is not what PAM says it is (${parsed.error.issues[0]?.path.join('.') ?? ''}: ${parsed.error.issues[0]?.message ?? 'bad shape'})`,
    );
  return parsed.data;
}

const memoriesSchema = z.object({
  export_id: z.string().nullish(),
  memories: z.array(
    z
      .object({ id: z.string().min(1), content: z.string(), status: z.string().nullish() })
      .passthrough(),
  ),
});

/**
 * The memories that have a vector: active ones with words (forgotten or edited ones lose
 * theirs), the memory journal's changes included.
 */
async function activeMemories(bundle: Bundle): Promise<{ id: string; content: string }[]> {
  // The journal first, as readMemoryStore reads it (a fold meanwhile leaves it stale).
  const journal = await readMemoryJournal(bundle);
  const store = await readJson(bundle.files, bundle.layout.memoryStore, memoriesSchema);
  const memories = new Map<
    string,
    { id: string; content: string; status?: string | null | undefined }
  >((store?.memories ?? []).map((m) => [m.id, m]));
  if (journal && journal.base === store?.export_id)
    for (const [id, memory] of journal.memories) memories.set(id, memory);
  return [...memories.values()].filter(
    (m) => (m.status ?? 'active') === 'active' && holdsText(m.content),
  );
}

async function writeEmbeddings(bundle: Bundle, embeddings: readonly unknown[]): Promise<void> {
  await bundle.files.write(
    bundle.layout.embeddings,
    `${JSON.stringify(
      { schema: 'portable-ai-memory-embeddings', schema_version: PAM_SCHEMA_VERSION, embeddings },
      null,
      2,
    )}\n`,
  );
}

/**
 * The vectors of the bundle's `embeddings.json`, for the store to index (the bundle alone
 * restores them: nothing is embedded again). Entries without a vector are left out.
 */
export async function readMemoryVectors(bundle: Bundle): Promise<MemoryVector[]> {
  const file = await readJson(bundle.files, bundle.layout.embeddings, embeddingsSchema);
  return (file?.embeddings ?? []).flatMap((e) =>
    e.vector && e.vector.length > 0
      ? [{ memoryId: e.memory_id, model: e.model, vector: Float32Array.from(e.vector) }]
      : [],
  );
}

/**
 * Drops from `embeddings.json` the vectors of memories no longer active (forgotten, edited,
 * gone), with no model needed. Returns how many it dropped.
 */
export async function pruneMemoryEmbeddings(bundle: Bundle): Promise<number> {
  const before = await readJson(bundle.files, bundle.layout.embeddings, embeddingsSchema);
  if (!before) return 0;
  const active = new Set((await activeMemories(bundle)).map((m) => m.id));
  const kept = before.embeddings.filter((e) => active.has(e.memory_id));
  const dropped = before.embeddings.length - kept.length;
  if (dropped > 0) await writeEmbeddings(bundle, kept);
  return dropped;
}

/**
 * Writes the bundle's `embeddings.json`: one vector per active memory of `memory-store.json`,
 * made with the embedder (vectors already made come from the cache; memories that are gone,
 * forgotten or replaced by an edit lose theirs). Returns how many memories were embedded anew.
 */
export async function embedMemories(
  bundle: Bundle,
  embedder: TextEmbedder & { countTokens?(text: string): number },
  cache: EmbeddingCache | undefined,
  now: () => string = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
): Promise<{ memories: number; embedded: number; hashes: string[] }> {
  const memories = await activeMemories(bundle);
  const before = await readJson(bundle.files, bundle.layout.embeddings, embeddingsSchema);
  if (memories.length === 0 && !before) return { memories: 0, embedded: 0, hashes: [] };
  const model = embedder.model.id;
  const hashes = memories.map((m) => textHash(m.content));
  const known = cache?.get(model, hashes) ?? new Map<string, Float32Array>();
  const missing = memories.filter((_, i) => !known.has(hashes[i] ?? ''));
  const made = missing.length > 0 ? await embedder.embed(missing.map((m) => m.content)) : [];
  const entries = missing.map((m, i) => ({
    textHash: textHash(m.content),
    vector: made[i] ?? new Float32Array(0),
  }));
  cache?.put(model, entries);
  for (const entry of entries) known.set(entry.textHash, entry.vector);
  const previous = new Map(
    (before?.embeddings ?? []).filter((e) => e.model === model).map((e) => [e.memory_id, e]),
  );
  const embeddings: MemoryEmbedding[] = memories.map((memory, i) => {
    const vector = Array.from(known.get(hashes[i] ?? '') ?? []);
    const old = previous.get(memory.id);
    const same =
      old?.vector?.length === vector.length && old.vector.every((v, k) => v === vector[k]);
    return {
      id: `emb-${memory.id}`,
      memory_id: memory.id,
      model,
      dimensions: vector.length,
      created_at: same ? old.created_at : now(),
      vector,
    };
  });
  await writeEmbeddings(bundle, embeddings);
  return { memories: memories.length, embedded: missing.length, hashes };
}
