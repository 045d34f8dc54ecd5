import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { project } from '../graph/project.js';
import { emptyProjectMemo } from '../graph/project-memo.js';
import { buildConversation, emptyBuildMemo } from './build-conversation.js';
import type { DraftMessage } from './draft.js';
import { apply, conversationOf, step } from '../../test/support/growing-drafts.js';

const options = { record: '#0', fallbackTime: undefined };
const projection = {
  source: 'claude-code',
  label: 'Claude Code',
  deep: true,
  importId: 'import:1',
  fileTools: { read: ['Read'], modify: ['Edit'] },
  attachmentText: (ref: string) => `attached text of ${ref}`,
};

describe('a conversation built as it grows', () => {
  it('is the conversation, and the graph, a whole build of the same drafts gives, step after step', () => {
    let grown = 0;
    let steps = 0;
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 40 }), (plan) => {
        const drafts: DraftMessage[] = [];
        const memo = emptyBuildMemo();
        const projected = emptyProjectMemo();
        plan.forEach((s, n) => {
          apply(drafts, s, n, memo.changed);
          const live: string[] = [];
          const liveConversation = buildConversation(conversationOf(drafts), {
            ...options,
            memo,
            report: (d) => live.push(d.code),
          });
          const change = memo.change;
          const whole: string[] = [];
          const wholeConversation = buildConversation(conversationOf(drafts), {
            ...options,
            report: (d) => whole.push(d.code),
          });
          expect(liveConversation).toEqual(wholeConversation);
          expect(live).toEqual(whole);
          const liveBatch = project(liveConversation, { ...projection, memo: projected, change });
          expect(liveBatch).toEqual(project(wholeConversation, projection));
          steps++;
          if (change) grown++;
        });
      }),
      { numRuns: 400 },
    );
    // Most steps went on from the last build (the test would pass vacuously otherwise).
    expect(grown / steps).toBeGreaterThan(0.4);
  });
});
