import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { emptyBuildMemo } from '../../model/build-conversation.js';
import type { DraftMessage } from '../../model/draft.js';
import { draftOf } from '../../../test/support/growing-drafts.js';
import { draftsIndex } from './drafts-index.js';

const draft = (t: number | undefined): DraftMessage =>
  draftOf(`k${t ?? 'x'}`, null, t, 'user', '', 0);

describe('draftsIndex of a growing session', () => {
  it('is the range and the keys of all its drafts, whatever was taken back and added at the end', () => {
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
          const grown = draftsIndex(drafts, memo);
          const whole = draftsIndex(drafts);
          expect([grown.first, grown.last]).toEqual([whole.first, whole.last]);
          for (const key of ['kx', ...Array.from({ length: 60 }, (_, t) => `k${t}`)])
            expect(grown.has(key)).toBe(whole.has(key));
        }
      }),
      { numRuns: 500 },
    );
  });
});
