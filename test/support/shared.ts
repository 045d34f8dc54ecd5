import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The shared folder beside the repository (read-only; never copied in). */
export const SHARED = resolve(process.env.CHATGRAPH_SHARED ?? join(ROOT, '..', 'shared'));

/** The shared fixtures of one provider folder, as absolute paths, sorted. */
export function fixtures(folder: string): string[] {
  const dir = join(SHARED, 'fixtures', folder);
  if (!existsSync(dir))
    throw new Error(`shared fixtures not found at ${dir} (set CHATGRAPH_SHARED)`);
  return readdirSync(dir)
    .filter((name) => !name.startsWith('.'))
    .sort()
    .map((name) => join(dir, name));
}

/**
 * The fixtures of a source: the shared public samples when ../shared has the folder, else the
 * files written for the project in test/fixtures (for sources with no public sample).
 */
export function fixturesOf(folder: string): string[] {
  const shared = join(SHARED, 'fixtures', folder);
  const dir = existsSync(shared) ? shared : join(ROOT, 'test', 'fixtures', folder);
  return readdirSync(dir)
    .filter((name) => !name.startsWith('.'))
    .sort()
    .map((name) => join(dir, name));
}

/** Every source with golden files: the shared public samples, then the project's own. */
export const GOLDEN_SOURCES = [
  'chatgpt',
  'claude-ai',
  'claude-code',
  'grok',
  'deepseek',
  'le-chat',
  'copilot',
  'gemini',
];
