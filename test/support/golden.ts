import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { expect } from 'vitest';
import { ROOT } from './shared.js';

/** Set UPDATE_GOLDEN=1 to rewrite golden files from the current output. */
export const UPDATING = process.env.UPDATE_GOLDEN === '1';

/**
 * Compares a value with its golden file (or rewrites the file when updating). The checkout's
 * own path (a log kept beside its project, Aider's, is known by where it sits) is written
 * `<checkout>`, so golden files do not depend on where the project is.
 */
export function expectGolden(path: string, value: unknown): void {
  const text = `${JSON.stringify(value, null, 2)}\n`.split(ROOT).join('<checkout>');
  if (!UPDATING && !existsSync(path))
    throw new Error(`golden file missing: ${path} (run with UPDATE_GOLDEN=1 to write it)`);
  if (UPDATING) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    return;
  }
  expect(JSON.parse(text)).toEqual(JSON.parse(readFileSync(path, 'utf8')));
}
