import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { QueryError, type ConversationFilter, type Store } from '../../src/stores/store.js';
import { join } from 'node:path';
import { batchesOf, knownConversations } from '../support/graph-fixtures.js';
import { convertToTemp } from '../support/convert-to-temp.js';
import { ROOT } from '../support/shared.js';

const FIXTURES = join(ROOT, 'test', 'fixtures');

const SORTS = ['newest', 'oldest', 'most-messages', 'updated', 'title'] as const;

/** The conversation list: previews and models, and paging by cursor, the same on every store. */
export function listContract(name: string, open: () => Promise<Store>): void {
  describe(`Store contract, the list: ${name}`, () => {
    let store: Store;

    beforeEach(async () => {
      store = await open();
      await store.upsert(batchesOf(await knownConversations()));
    });
    afterEach(async () => {
      await store.close();
    });

    it('lists by project: a ChatGPT project by its g-p- id, a Claude.ai one by its name', async () => {
      const chatgpt = await convertToTemp([join(FIXTURES, 'chatgpt', 'sharded-manifest-2026')]);
      const claude = await convertToTemp([join(FIXTURES, 'claude-ai', 'project-linked-2026.json')]);
      await store.upsert(batchesOf([...chatgpt.conversations, ...claude.conversations]));
      const titles = async (project: string): Promise<(string | null)[]> =>
        (await store.listConversations({ project })).items.map((c) => c.title);
      expect(await titles('G-P-68B0')).toEqual(['Kitchen renovation budget']);
      expect(await titles('allotment')).toEqual(['Shade paint in July']);
      expect(await titles('g-2fkFE8rbu')).toEqual([]);
    });

    it('gives each conversation its first user message as a preview, and its model', async () => {
      const { items } = await store.listConversations({ sort: 'title', limit: 10 });
      expect(items.map((c) => [c.platformId, c.preview, c.model])).toEqual([
        ['gpt-a', 'hello', 'gpt-4o'],
        ['cl-1', 'How long should sourdough proof?', null],
        ['gpt-b', 'hello', 'gpt-4o'],
      ]);
    });

    for (const sort of SORTS)
      it(`pages by cursor through the same order as one page, sorted by ${sort}`, async () => {
        const whole = await store.listConversations({ sort, limit: 10 });
        expect(whole.nextCursor).toBeNull();
        const paged: string[] = [];
        let after: string | undefined;
        for (let turn = 0; turn < 5; turn++) {
          const filter: ConversationFilter = { sort, limit: 1, after };
          const page = await store.listConversations(filter);
          expect(page.total).toBe(3);
          paged.push(...page.items.map((c) => c.id));
          if (page.nextCursor === null) break;
          after = page.nextCursor;
        }
        expect(paged).toEqual(whole.items.map((c) => c.id));
      });

    it('keeps the filter along the cursor, and refuses a cursor it did not give', async () => {
      const first = await store.listConversations({ source: 'chatgpt', sort: 'oldest', limit: 1 });
      expect(first.items.map((c) => c.platformId)).toEqual(['gpt-a']);
      const next = await store.listConversations({
        source: 'chatgpt',
        sort: 'oldest',
        limit: 1,
        after: first.nextCursor ?? '',
      });
      expect(next.items.map((c) => c.platformId)).toEqual(['gpt-b']);
      expect(next.nextCursor).toBeNull();
      await expect(store.listConversations({ after: 'not-a-cursor' })).rejects.toThrow(QueryError);
    });
  });
}
