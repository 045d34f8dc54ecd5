import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The bundle's memories as its record holds them, read as another program would: the memories
 * of `memory-store.json` with the lines of `memory-journal.jsonl` that extend it (its header
 * names the file's `export_id`) replayed over them, last change winning.
 */
export function recordedMemories<T extends { id: string }>(bundle: string): T[] {
  const store = JSON.parse(readFileSync(join(bundle, 'memory-store.json'), 'utf8')) as {
    export_id?: string;
    memories: T[];
  };
  const memories = new Map(store.memories.map((m) => [m.id, m]));
  const journal = join(bundle, 'memory-journal.jsonl');
  if (existsSync(journal)) {
    const [header, ...changes] = readFileSync(journal, 'utf8').split('\n').slice(0, -1);
    if ((JSON.parse(header ?? '{}') as { base?: string }).base === store.export_id)
      for (const line of changes)
        for (const memory of (JSON.parse(line) as { memories: T[] }).memories)
          memories.set(memory.id, memory);
  }
  return [...memories.values()];
}
