import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ROOT } from './support/shared.js';

const run = promisify(execFile);

// dependency-cruiser forbids cycles between files; this forbids them between the folders of
// src/ (a stage or role each): the folders form layers, each importing only those below it
// (docs/architecture.md, "The data folder"). No knot remains (issue 27); a new one fails here.
const KNOWN_KNOTS: string[][] = [];

const cruised = z.object({
  modules: z.array(
    z.object({
      source: z.string(),
      dependencies: z.array(
        z.object({ resolved: z.string(), dependencyTypes: z.array(z.string()) }),
      ),
    }),
  ),
});

function folderOf(path: string): string | undefined {
  return /^src\/([^/]+)\//.exec(path)?.[1];
}

/** The strongly connected folders (Tarjan), each sorted, of more than one folder. */
function knots(edges: Map<string, Set<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v) ?? 0);
    stack.push(v);
    for (const w of edges.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const knot: string[] = [];
    for (let w = stack.pop(); w !== undefined; w = w === v ? undefined : stack.pop()) knot.push(w);
    if (knot.length > 1) found.push(knot.sort());
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found.sort((a, b) => a.join().localeCompare(b.join()));
}

describe('folders', () => {
  it('import each other in no cycle beyond the one knot pinned', async () => {
    const { stdout } = await run(
      'npx',
      ['depcruise', 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
      { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
    );
    const edges = new Map<string, Set<string>>();
    for (const module of cruised.parse(JSON.parse(stdout)).modules) {
      const from = folderOf(module.source);
      if (from === undefined) continue;
      const to = edges.get(from) ?? new Set<string>();
      edges.set(from, to);
      for (const dependency of module.dependencies) {
        // A type is no dependency at run time (nor a cycle in the build).
        if (dependency.dependencyTypes.includes('type-only')) continue;
        const target = folderOf(dependency.resolved);
        if (target !== undefined && target !== from) to.add(target);
      }
    }
    expect(edges.has('data-folder')).toBe(true);
    expect(knots(edges)).toEqual(KNOWN_KNOTS);
  }, 60_000);
});
