import { describe, expect, it } from 'vitest';
import type { EmbedPlan, EmbedProgress } from '../api/models.js';
import { EmbedProgressBar, describePlan, describeRate } from './embed-progress.js';

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

describe('describeRate', () => {
  it('gives the pace in all and per core, a core a worker', () => {
    expect(describeRate(624, 20, 2)).toBe('31.2 texts/s on 2 cores, 15.6 per core');
    expect(describeRate(160, 10, 1)).toBe('16.0 texts/s on 1 core');
  });

  it('names no cores for an endpoint, and no pace before any time has passed', () => {
    expect(describeRate(50, 10, undefined)).toBe('5.0 texts/s');
    expect(describeRate(3, 0, 2)).toBe('0.0 texts/s on 2 cores, 0.0 per core');
  });

  it('says in the plan how many cores the time is for', () => {
    expect(
      describePlan(
        plan({ pass: 'conversations', conversations: 10, seconds: 60, workers: 2 }),
        'm',
      ),
    ).toContain('about 60 s on 2 cores with m');
  });
});

describe('EmbedProgressBar', () => {
  // A terminal as the bar writes to it: what it was sent.
  const terminal = (): { written: string[]; stream: NodeJS.WriteStream } => {
    const written: string[] = [];
    const stream = Object.assign(Object.create(process.stderr) as NodeJS.WriteStream, {
      isTTY: true,
      columns: 80,
      write: (text: string) => written.push(text) > 0,
    });
    return { written, stream };
  };
  const progress = (conversations: number): EmbedProgress => ({
    pass: 'chunks',
    conversations,
    conversationsDone: 0,
    embedded: 0,
    cached: 0,
    characters: 100,
    charactersDone: 10,
    seconds: 0,
  });

  it('draws a pass with work, and nothing for a pass with none', () => {
    const busy = terminal();
    new EmbedProgressBar(busy.stream).update(progress(3));
    expect(busy.written.join('')).toMatch(/embedding chunks \[#+-+\]\s+10% 0\/3 conversations/);
    const idle = terminal();
    new EmbedProgressBar(idle.stream).update(progress(0));
    expect(idle.written).toEqual([]);
  });
});
