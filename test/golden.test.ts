import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shownThread } from '../src/model/build-conversation.js';
import { convertToTemp } from './support/convert-to-temp.js';
import { expectGolden } from './support/golden.js';
import { conversationErrors, memoryStoreErrors } from './support/pam-validator.js';
import { GOLDEN_SOURCES, ROOT, fixturesOf } from './support/shared.js';

describe.each(GOLDEN_SOURCES)('golden PAM output for %s fixtures', (folder) => {
  it.each(fixturesOf(folder).map((path) => [basename(path), path]))('%s', async (name, path) => {
    const { conversations, store, report } = await convertToTemp([path]);
    for (const conversation of conversations) expect(conversationErrors(conversation)).toEqual([]);
    expect(memoryStoreErrors(store)).toEqual([]);
    expect(conversations.length).toBeGreaterThan(0);
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
    });
  });
});
