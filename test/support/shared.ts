import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { it } from 'vitest';

/** The repository root. */
export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The shared folder beside the repository (read-only, never copied in, absent from a clone). */
export const SHARED = resolve(process.env.CHATGRAPH_SHARED ?? join(ROOT, '..', 'shared'));

/** The public export samples of the conformance layer: `CHATGRAPH_CORPUS`, else ../shared/fixtures. */
export const CORPUS = resolve(process.env.CHATGRAPH_CORPUS ?? join(SHARED, 'fixtures'));

/** The official PAM schemas and examples of the conformance layer (../shared/pam). */
export const PAM_REFERENCE = join(SHARED, 'pam');

/** Whether this is a CI run (`CI` set to anything but empty, "false" or "0"): the corpus is then required. */
export const CI = !['', 'false', '0'].includes(process.env.CI ?? '');

function filesIn(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => !name.startsWith('.'))
    .sort()
    .map((name) => join(dir, name));
}

/** The project's own fixtures of a source (test/fixtures/<source>), as absolute paths, sorted. */
export function fixturesOf(folder: string): string[] {
  return filesIn(join(ROOT, 'test', 'fixtures', folder));
}

/** The sources whose public samples the corpus holds. */
export const CORPUS_SOURCES = ['chatgpt', 'claude-ai', 'claude-code'];

/** Whether the corpus is there, with a folder for each of its sources. */
export const CORPUS_PRESENT = CORPUS_SOURCES.every((folder) => existsSync(join(CORPUS, folder)));

/** The corpus sources to run tests over: none when the corpus is absent. */
export const CORPUS_FOLDERS = CORPUS_PRESENT ? CORPUS_SOURCES : [];

/** The corpus samples of a source, as absolute paths, sorted (none when the corpus is absent). */
export function corpusOf(folder: string): string[] {
  const dir = join(CORPUS, folder);
  return CORPUS_PRESENT && existsSync(dir) ? filesIn(dir) : [];
}

/**
 * Registers the test that the conformance layer ran: it fails under CI when the corpus is
 * missing (one line saying where it looked), and is skipped, visibly, elsewhere.
 */
export function itReadsTheCorpus(): void {
  it.skipIf(!CORPUS_PRESENT && !CI)('reads the public export corpus (conformance layer)', () => {
    if (!CORPUS_PRESENT)
      throw new Error(
        `the public export corpus is required under CI but missing: looked in ${CORPUS} for ${CORPUS_SOURCES.join(', ')} (set CHATGRAPH_CORPUS)`,
      );
    for (const folder of CORPUS_SOURCES)
      if (corpusOf(folder).length === 0)
        throw new Error(`no corpus samples in ${join(CORPUS, folder)}`);
  });
}

/** Every source with golden files. */
export const GOLDEN_SOURCES = [
  'chatgpt',
  'claude-ai',
  'claude-code',
  'grok',
  'deepseek',
  'le-chat',
  'copilot',
  'gemini',
  'perplexity',
  // Coding agents (issue 39): one fixture per format generation each.
  'codex',
  'gemini-cli',
  'qwen-code',
  'cline',
  'roo-code',
  'kilo-code',
  'aider',
  'opencode',
  'goose',
  'zed',
  'cursor',
  'kiro',
  // Coding agents of issue 39's second part.
  'copilot-cli',
  'mistral-vibe',
  'pi',
  'vscode-copilot-chat',
  'amp',
  'continue',
];
