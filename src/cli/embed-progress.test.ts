import { describe, expect, it } from 'vitest';
import type { EmbedPlan } from '../index.js';
import { describePlan } from './embed-progress.js';

const plan = (over: Partial<EmbedPlan>): EmbedPlan => ({
  pass: 'chunks',
  conversations: 0,
  texts: 0,
  chunks: 0,
  cached: 0,
  tokens: 0,
  characters: 0,
  seconds: 0,
  ...over,
});

describe('describePlan', () => {
  it('says the first pass covers every conversation, with its time', () => {
    const line = describePlan(
      plan({ pass: 'conversations', conversations: 4700, chunks: 4700, seconds: 125 }),
      'm',
    );
    expect(line).toMatch(/^embedding 4,700 conversations first, one vector each/);
    expect(line).toContain('about 2 min');
  });

  it('counts chunks, not texts, and what the cache holds, for the second pass', () => {
    const line = describePlan(
      plan({
        conversations: 4,
        texts: 59,
        chunks: 153,
        cached: 44,
        characters: 77_000,
        seconds: 3.7,
      }),
      'm',
    );
    expect(line).toMatch(
      /^embedding 4 conversations whole: 153 chunks of 59 texts, .*44 from the cache.*about 4 s$/,
    );
    expect(describePlan(plan({}), 'm')).toMatch(/^nothing to embed/);
  });
});
