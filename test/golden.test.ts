import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join, sep } from 'node:path';
import { INLINE_TEXT_DIR } from '../src/bundle/inline-text.js';
import { describe, expect, it } from 'vitest';
import { shownThread } from '../src/model/build-conversation.js';
import { convertToTemp } from './support/convert-to-temp.js';
import { expectGolden } from './support/golden.js';
import { fixtureInput } from './support/sqlite-fixtures.js';
import { conversationErrors, memoryStoreErrors } from './support/pam-validator.js';
import {
  CORPUS_FOLDERS,
  GOLDEN_SOURCES,
  ROOT,
  corpusOf,
  fixturesOf,
  itReadsTheCorpus,
} from './support/shared.js';

// The pasted or extracted text files the bundle holds, by ref (left out when there are none).
function inlineTexts(dir: string): { inline_texts?: Record<string, string> } {
  const root = join(dir, INLINE_TEXT_DIR);
  if (!existsSync(root)) return {};
  const refs = readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.txt'))
    .map((name) => `${INLINE_TEXT_DIR}/${name.split(sep).join('/')}`)
    .sort();
  return {
    inline_texts: Object.fromEntries(
      refs.map((ref) => [ref, readFileSync(join(dir, ref), 'utf8')]),
    ),
  };
}

async function expectGoldenPam(folder: string, name: string, fixture: string): Promise<void> {
  const path = fixtureInput(fixture);
  const { conversations, store, report, dir } = await convertToTemp([path]);
  for (const conversation of conversations) expect(conversationErrors(conversation)).toEqual([]);
  expect(memoryStoreErrors(store)).toEqual([]);
  // An export of memories and projects alone (Claude.ai's, issue 42) has no conversation.
  expect(conversations.length + store.memories.length).toBeGreaterThan(0);
  for (const conversation of conversations) {
    // The shown thread starts at a root and ends at the recorded leaf.
    const thread = shownThread(conversation);
    expect(thread.length).toBeGreaterThan(0);
    expect(thread[0]?.parent_id).toBeNull();
  }
  expectGolden(join(ROOT, 'test', 'golden', 'pam', folder, `${name}.golden.json`), {
    conversations,
    memory_store: store,
    problems: report.problems.map((p) => ({ code: p.code, level: p.level, count: p.count })),
    totals: report.totals,
    ...inlineTexts(dir),
  });
}

const named = (paths: string[]): [string, string][] => paths.map((path) => [basename(path), path]);

describe.each(GOLDEN_SOURCES)('golden PAM output for %s fixtures', (folder) => {
  it.each(named(fixturesOf(folder)))('%s', async (name, path) => {
    await expectGoldenPam(folder, name, path);
  });
});

// Conformance layer: the public export samples, with their own golden files.
describe('golden PAM output for the public corpus', () => {
  itReadsTheCorpus();
  describe.each(CORPUS_FOLDERS)('%s', (folder) => {
    it.each(named(corpusOf(folder)))('%s', async (name, path) => {
      await expectGoldenPam(folder, name, path);
    });
  });
});
