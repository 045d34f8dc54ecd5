import { readMemoryStore } from '../bundle/read-memory-store.js';
import type { Folder } from '../folder/folder.js';
import { projectPlatformProjects } from '../graph/platform-projects.js';
import type { Diagnostic } from '../model/diagnostic.js';
import { readMemoryVectors } from './embed-memories.js';
import type { MemoryVector } from '../stores/memory-index.js';
import type { GraphSink, MemoryHolder } from '../stores/store.js';

/** What {@link syncMemories} indexed, and a damaged `embeddings.json` if there was one. */
export interface MemorySync {
  memories: number;
  vectors: number;
  problem?: Diagnostic;
}

/**
 * Makes the store's Memory nodes what the bundle holds (after an import, a reindex, an edit, an
 * embed), with the memories' vectors from the bundle's `embeddings.json`: a reindex restores
 * them from the bundle alone, embedding nothing. An `embeddings.json` that cannot be read is
 * reported and its vectors left out (the memories are still found by words).
 */
export async function syncMemories(
  store: Pick<GraphSink, 'upsert'> & MemoryHolder,
  folder: Folder,
): Promise<MemorySync> {
  const { bundle } = folder;
  const file = await readMemoryStore(bundle);
  let vectors: MemoryVector[] = [];
  let problem: Diagnostic | undefined;
  try {
    vectors = await readMemoryVectors(bundle);
  } catch (error) {
    problem = {
      level: 'warning',
      code: 'memory-vectors-unreadable',
      message: `the memories' vectors were left out, so memories are found by words only until chatgraph embed writes them again: ${error instanceof Error ? error.message : String(error)}`,
      file: folder.layout.bundle.embeddings,
    };
  }
  const memories = file?.memories ?? [];
  await store.memories.replace(memories, vectors, file?.relations ?? []);
  // Claude.ai projects, recorded as memories, are Project nodes with their documents.
  await store.upsert(projectPlatformProjects(memories));
  const known = new Set(memories.map((m) => m.id));
  return {
    memories: memories.length,
    vectors: vectors.filter((v) => known.has(v.memoryId)).length,
    ...(problem ? { problem } : {}),
  };
}
