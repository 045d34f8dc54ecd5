import type { Folder } from '../folder/folder.js';
import { openEmbedder } from '../embed/open-embedder.js';
import type { MemoryHolder, VectorHolder } from '../stores/store.js';
import type { TextEmbedder } from './embed-conversations.js';
import { embedMemories, pruneMemoryEmbeddings } from './embed-memories.js';
import { modelOptions, openVectorCache } from './embed-store.js';

/**
 * What became of the memories' vectors after a change: `embedded` (found by meaning at once),
 * `pending` (the data folder has vectors but no model could embed: `chatgraph embed` will),
 * `none` (the data folder was never embedded: memories are found by words only).
 */
export interface MemoryVectorNote {
  state: 'embedded' | 'pending' | 'none';
  /** One sentence saying so, for a shell to show. */
  note: string;
}

/** Whether the data folder searches by meaning: it has vectors, or was embedded once. */
async function hasVectors(store: VectorHolder & MemoryHolder, folder: Folder): Promise<boolean> {
  return (
    (await store.vectors.model()) !== undefined ||
    (await store.memories.vectorModel()) !== undefined ||
    folder.files.exists(folder.layout.bundle.embeddings) ||
    // Written by the first `chatgraph embed`: it says so after a reindex too.
    folder.files.exists(folder.layout.embeddingSettings)
  );
}

/**
 * Keeps the bundle's `embeddings.json` in step with its memories after a change (run by the
 * writer, under the write lock): a forgotten or replaced memory's vector goes; with `embed`, a
 * new active memory is embedded with the data folder's model when it has vectors and the model
 * opens. The store is not touched: the caller indexes the bundle's vectors afterwards.
 */
export async function refreshMemoryVectors(
  store: VectorHolder & MemoryHolder,
  folder: Folder,
  options: {
    embed: boolean;
    modelDir?: string | undefined;
    /** A model already open, used when it is the data folder's (see MemoryTarget.embedder). */
    lent?: (() => Promise<TextEmbedder | undefined>) | undefined;
  },
): Promise<MemoryVectorNote> {
  await pruneMemoryEmbeddings(folder.bundle);
  if (!(await hasVectors(store, folder)))
    return {
      state: 'none',
      note: 'found by words; this data folder has no vectors yet: chatgraph embed makes them, and memories are found by meaning after that',
    };
  if (!options.embed)
    return { state: 'embedded', note: 'the vectors of memories no longer active are gone' };
  const indexed = (await store.vectors.model()) ?? (await store.memories.vectorModel());
  const lent = await options.lent?.();
  if (lent && indexed && lent.model.id === indexed.id) return embedWith(folder, lent);
  let embedder;
  try {
    embedder = await openEmbedder({
      ...(indexed ? { model: indexed.id } : {}),
      ...modelOptions(folder, options.modelDir !== undefined ? { modelDir: options.modelDir } : {}),
    });
  } catch (error) {
    return {
      state: 'pending',
      note: `found by words now, and by meaning once chatgraph embed embeds it (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  try {
    if (indexed && embedder.model.id !== indexed.id)
      return {
        state: 'pending',
        note: `found by words now: the vectors here are of ${indexed.id} but ${embedder.model.id} opened; chatgraph embed embeds it`,
      };
    return await embedWith(folder, embedder);
  } finally {
    await embedder.close();
  }
}

/** Embeds the active memories still without a vector, through the vector cache. */
async function embedWith(folder: Folder, embedder: TextEmbedder): Promise<MemoryVectorNote> {
  const cache = await openVectorCache(folder);
  try {
    await embedMemories(folder.bundle, embedder, cache);
  } finally {
    cache.close();
  }
  return {
    state: 'embedded',
    note: `embedded with ${embedder.model.id}: found by meaning as well as by words`,
  };
}
