// What one `remember` costs as the memory store grows: the median of a few remembers into a data
// folder that already holds N memories (seeded in one write), for N = 100, 1,000 and 7,000.
// Run from the repo, after `npm run build`: node bench/remember-cost.mjs [N...]
// REMEMBER_RUNS=600 runs past a fold of the memory journal (every 500 changes): see the mean.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Folder } from '../dist/folder/folder.js';
import { remember } from '../dist/memory/remember.js';
import { writeMemories } from '../dist/memory/write-memories.js';
import { newMemory } from '../dist/model/memory-input.js';

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
const RUNS = Number(process.env.REMEMBER_RUNS) || 15;

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

for (const n of sizes.length > 0 ? sizes : [100, 1000, 7000]) {
  const dataDir = mkdtempSync(join(tmpdir(), 'remember-cost-'));
  try {
    const folder = new Folder(dataDir);
    await writeMemories(folder, (context) => {
      for (let i = 0; i < n; i++) {
        const memory = newMemory(
          randomUUID(),
          {
            content: `seeded memory ${i}: the user prefers tabs over spaces in project ${i % 97}, and writes tests first`,
            type: 'preference',
            tags: ['seed'],
          },
          { platform: 'local' },
          'manual',
          context.now,
        );
        context.memories.set(memory.id, memory);
      }
    });
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      await remember(folder, { content: `measured memory ${i} at ${n}`, type: 'fact' });
      times.push(performance.now() - start);
    }
    console.log(
      `${n} memories: median ${median(times).toFixed(1)} ms, min ${Math.min(...times).toFixed(1)} ms, mean ${(times.reduce((a, b) => a + b, 0) / times.length).toFixed(1)} ms, max ${Math.max(...times).toFixed(1)} ms (${RUNS} remembers)`,
    );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
