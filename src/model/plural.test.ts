import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { reportInferred } from './inferred-times.js';
import fc from 'fast-check';
import { plural, thousands } from './plural.js';
import { depthCutMessage } from '../read/bound-depth.js';

const SRC = join(import.meta.dirname);

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('plurals in what chatgraph says', () => {
  it('counts with the noun right for one and for many', () => {
    expect(plural(1, 'conversation')).toBe('1 conversation');
    expect(plural(1200, 'entry', 'entries')).toBe('1,200 entries');
    expect(depthCutMessage(1)).toMatch(/^1 value nested deeper than \d+ levels was cut/);
    expect(depthCutMessage(3)).toMatch(/^3 values nested deeper than \d+ levels were cut/);
    const said: string[] = [];
    reportInferred(1, { report: (d) => said.push(d.message), record: 'r' });
    expect(said).toEqual(['1 message had no time and took the nearest known one']);
  });

  it('writes thousands as toLocaleString("en-US") does, without ICU', () => {
    for (const n of [0, -0, 7, -7, 999, 1000, -1000, 12_345, 999_999, 1_000_000, 64_045])
      expect(thousands(n)).toBe(n.toLocaleString('en-US'));
    fc.assert(
      fc.property(fc.oneof(fc.integer(), fc.maxSafeInteger(), fc.double()), (n) => {
        expect(thousands(n)).toBe(n.toLocaleString('en-US'));
      }),
      { numRuns: 300 },
    );
  });

  it('never writes "message(s)" in a report or error (MCP text and sample content aside)', () => {
    const found = sourceFiles(SRC)
      .filter((file) => !/^(mcp|sample)\//.test(relative(SRC, file)))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .map((line, i) => ({ line, at: `${relative(SRC, file)}:${i + 1}` }))
          .filter(({ line }) => /\b(?!http\()[a-z]{3,}\((s|es|ies)\)(?=[\s,.;:'"`])/.test(line)),
      )
      .map(({ at, line }) => `${at}: ${line.trim()}`);
    expect(found).toEqual([]);
  });
});
