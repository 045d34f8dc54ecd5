import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/stores/store.js';
import { cellsOf, mergedCells } from '../../src/stores/usage-cells.js';
import type { TokenSlot, UsageFilter, UsageGrain } from '../../src/stores/usage-reader.js';
import { dayGrain, zoneFormat } from '../../src/usage/usage-zone.js';
import { batchesOf, knownConversations } from '../support/graph-fixtures.js';
import { convertToTemp, tempDir } from '../support/convert-to-temp.js';
import { ROOT } from '../support/shared.js';

const CODEX = join(
  ROOT,
  'test',
  'fixtures',
  'codex',
  'rollout-2025-10-29T09-12-04-019a2f3d-1704-7a1b-8c1d-2e3f4a5b6c7d.jsonl',
);
const NOTES = join(ROOT, 'test', 'fixtures', 'claude-code', 'notes-second-session.jsonl');

/**
 * A session resumed from the notes fixture: Claude Code copies the earlier lines (the same
 * message.id and requestId) into the new session's file, then adds its own reply.
 */
function resumedNotes(): string {
  const dir = tempDir('chatgraph-usage-');
  const resumedId = '5e55a004-0002-4e3c-a4d5-000015485863';
  const copied = readFileSync(NOTES, 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.replaceAll('5e55a004-0001-4e3c-a4d5-000015485863', resumedId));
  const reply = {
    parentUuid: '5ec0dd5e-0003-4e3c-a4d5-000046457589',
    isSidechain: false,
    userType: 'external',
    cwd: '/home/maya/notes',
    sessionId: resumedId,
    version: '2.0.14',
    uuid: '5ec0dd5e-0004-4e3c-a4d5-000046457589',
    timestamp: '2025-10-06T08:10:00.000Z',
    type: 'assistant',
    requestId: 'req_01NotesB',
    message: {
      id: 'msg_01NotesB',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5-20250929',
      content: [{ type: 'text', text: 'You are welcome.' }],
      stop_reason: 'end_turn',
      usage: {
        input_tokens: 7,
        output_tokens: 11,
        cache_creation_input_tokens: 300,
        cache_read_input_tokens: 9400,
      },
    },
  };
  const file = join(dir, `${resumedId}.jsonl`);
  writeFileSync(file, [...copied, JSON.stringify(reply)].join('\n') + '\n');
  return file;
}

type Sums = Pick<TokenSlot, 'input' | 'output' | 'cacheRead' | 'cacheCreation' | 'reasoning'>;

function summed(slots: readonly TokenSlot[], model?: string): Sums {
  const sums: Sums = { input: 0, output: 0, cacheRead: 0, cacheCreation: 0, reasoning: 0 };
  for (const slot of slots) {
    if (model !== undefined && slot.model !== model) continue;
    sums.input += slot.input;
    sums.output += slot.output;
    sums.cacheRead += slot.cacheRead;
    sums.cacheCreation += slot.cacheCreation;
    sums.reasoning += slot.reasoning;
  }
  return sums;
}

/** What every store's usage reader answers, on the same imports. */
export function usageContract(name: string, open: () => Promise<Store>): void {
  describe(`Usage contract: ${name}`, () => {
    let store: Store;

    beforeEach(async () => {
      store = await open();
      await store.setDeep(true);
      await store.upsert(batchesOf(await knownConversations()));
      const { conversations } = await convertToTemp([CODEX, NOTES, resumedNotes()]);
      await store.upsert(batchesOf(conversations));
    });
    afterEach(async () => {
      await store.close();
    });

    it('sums every call by quarter hour, a resumed copy of a response once', async () => {
      const { slots, conversations } = await store.usage.tokenTotals({});
      // Codex by hand: three calls, input less the cached reads (9120-2048, 10680-6912,
      // 11200-8040), output 412+118+110 with 300 of reasoning.
      const codex = conversations.filter((c) => c.source === 'codex').map((c) => c.id);
      expect(codex).toHaveLength(1);
      expect(summed(slots.filter((s) => codex.includes(s.conversationId)))).toEqual({
        input: 7072 + 3768 + 3160,
        output: 412 + 118 + 110,
        cacheRead: 2048 + 6912 + 8040,
        cacheCreation: 0,
        reasoning: 300,
      });
      // Claude Code: msg_01NotesA once (not again in the resumed copy), and msg_01NotesB.
      expect(summed(slots, 'claude-sonnet-4-5-20250929')).toEqual({
        input: 1200 + 7,
        output: 180 + 11,
        cacheRead: 9000 + 9400,
        cacheCreation: 300,
        reasoning: 0,
      });
      // Counted in the conversation that held it first: the original session.
      const first = slots.find((s) => s.slot === '2025-10-05T20:45');
      expect(first?.input).toBe(1200);
      const original = conversations.find((c) => c.id === first?.conversationId);
      expect(original?.source).toBe('claude-code');
      expect(original?.project).toMatch(/notes/);
      // The chat exports' conversations have no counts and are no slot's.
      expect(conversations.every((c) => c.source === 'codex' || c.source === 'claude-code')).toBe(
        true,
      );
    });

    it('cuts by time inside a quarter hour, and by source and project', async () => {
      const at = async (filter: Parameters<Store['usage']['tokenTotals']>[0]): Promise<Sums> =>
        summed((await store.usage.tokenTotals(filter)).slots);
      // The Codex calls' replies are at 09:12:33.9, 09:12:41.01 (both in the 09:00 quarter
      // hour) and 09:20:25.
      const all = await at({ source: 'codex' });
      const none = await at({ source: 'codex', until: '2025-10-29T09:12:33.900000Z' });
      expect(none.input).toBe(0);
      const split = await at({ source: 'codex', since: '2025-10-29T09:12:35.000000Z' });
      const before = await at({ source: 'codex', until: '2025-10-29T09:12:35.000000Z' });
      expect(before.input).toBe(7072);
      expect(split.input).toBe(3768 + 3160);
      expect(before.input + split.input).toBe(all.input);
      expect(
        (await at({ since: '2025-10-29T09:12:35.000000Z', until: '2025-10-29T09:12:42.000000Z' }))
          .input,
      ).toBe(3768);
      // The resumed reply alone on its day.
      expect(
        await at({
          source: 'claude-code',
          since: '2025-10-06T00:00:00.000000Z',
          until: '2025-10-07T00:00:00.000000Z',
        }),
      ).toEqual({ input: 7, output: 11, cacheRead: 9400, cacheCreation: 300, reasoning: 0 });
      expect((await at({ project: 'NOTES' })).input).toBe(1207);
      expect((await at({ project: 'no such project' })).input).toBe(0);
    });

    it('sums to a report’s grain what it sums by quarter hour', async () => {
      const grains: UsageGrain[] = [
        dayGrain(zoneFormat('America/New_York')),
        { by: 'session' },
        { by: 'project' },
        { by: 'none' },
      ];
      const filters: UsageFilter[] = [
        {},
        { source: 'codex', since: '2025-10-29T09:12:35.000000Z' },
        { until: '2025-10-06T08:10:00.000000Z' },
        { project: 'notes' },
      ];
      for (const grain of grains)
        for (const filter of filters) {
          const cells = mergedCells(await store.usage.tokenCells(filter, grain));
          expect(cells).toEqual(cellsOf(await store.usage.tokenTotals(filter), grain));
          if (Object.keys(filter).length === 0) expect(cells.length).toBeGreaterThan(1);
        }
    });

    it('says which conversations have no token counts, with their models', async () => {
      const uncounted = await store.usage.uncounted({});
      expect(uncounted.map((u) => u.source)).not.toContain('codex');
      expect(uncounted.map((u) => u.source)).not.toContain('claude-code');
      for (const source of uncounted) {
        expect(source.conversations).toBeGreaterThan(0);
        expect(source.conversations).toBeLessThanOrEqual(source.of);
      }
      const sources = uncounted.map((u) => u.source);
      let messages = 0;
      for await (const message of store.usage.uncountedMessages({}, sources)) {
        expect(['user', 'assistant']).toContain(message.role);
        messages += 1;
      }
      expect(messages).toBeGreaterThan(0);
    });

    it('keeps its sums when a conversation is imported again or removed', async () => {
      const before = summed((await store.usage.tokenTotals({})).slots);
      const { conversations } = await convertToTemp([CODEX]);
      await store.upsert(batchesOf(conversations));
      expect(summed((await store.usage.tokenTotals({})).slots)).toEqual(before);
    });
  });
}
