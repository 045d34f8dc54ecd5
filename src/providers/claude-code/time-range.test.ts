import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyBuildMemo } from '../../model/build-conversation.js';
import type { DraftMessage } from '../../model/draft.js';
import { timeRange } from './time-range.js';

const draft = (t: number | undefined): DraftMessage => ({
  key: `k${t ?? 'x'}`,
  parentKey: null,
  provider_message_id: null,
  role: 'user',
  createdAt: t === undefined ? undefined : `2026-01-01T10:00:${String(t).padStart(2, '0')}Z`,
  model: null,
  is_thought: false,
  attachments: [],
  citations: [],
  tool_calls: [],
  raw_metadata: {},
});

describe('timeRange of a growing session', () => {
  it('is the range of all its drafts, whatever was taken back and added at the end', () => {
    const time = fc.option(fc.integer({ min: 0, max: 59 }), { nil: undefined });
    const step = fc.record({
      back: fc.integer({ min: 0, max: 3 }),
      add: fc.array(time, { maxLength: 3 }),
    });
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 30 }), (steps) => {
        const memo = emptyBuildMemo();
        const drafts: DraftMessage[] = [];
        for (const { back, add } of steps) {
          drafts.splice(Math.max(0, drafts.length - back));
          drafts.push(...add.map(draft));
          expect(timeRange(drafts, memo)).toEqual(timeRange(drafts));
        }
      }),
      { numRuns: 500 },
    );
  });
});
