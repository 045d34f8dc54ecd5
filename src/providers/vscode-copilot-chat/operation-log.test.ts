import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../model/diagnostic.js';
import type { LogLine } from '../log-lines.js';
import { replayOperations } from './operation-log.js';

function replay(entries: unknown[]): { state: unknown; problems: string[] } {
  const problems: Omit<Diagnostic, 'file'>[] = [];
  const lines: LogLine[] = entries.map((entry, i) => ({
    line: i + 1,
    entry: entry as LogLine['entry'],
  }));
  const state = replayOperations(lines, { report: (d) => problems.push(d) });
  return { state, problems: problems.map((p) => `${p.record}: ${p.code}`) };
}

describe('replayOperations', () => {
  it('sets, pushes (dropping from i), deletes, and starts again at a full state', () => {
    const { state, problems } = replay([
      { kind: 0, v: { title: 'a', requests: [{ response: [] }], pending: true } },
      { kind: 2, k: ['requests', 0, 'response'], v: ['x', 'y'] },
      { kind: 2, k: ['requests', 0, 'response'], i: 1, v: ['z'] },
      { kind: 1, k: ['title'], v: 'b' },
      { kind: 2, k: ['requests'], v: [{ response: ['w'] }] },
      { kind: 3, k: ['pending'] },
    ]);
    expect(problems).toEqual([]);
    expect(state).toEqual({
      title: 'b',
      requests: [{ response: ['x', 'z'] }, { response: ['w'] }],
    });
    expect(
      replay([
        { kind: 0, v: { a: 1 } },
        { kind: 0, v: { b: 2 } },
      ]).state,
    ).toEqual({ b: 2 });
  });

  it('reports an operation on a path that is not there, or of an unknown kind, by its line', () => {
    const { state, problems } = replay([
      { kind: 1, k: ['title'], v: 'early' },
      { kind: 0, v: { requests: [] } },
      { kind: 1, k: ['requests', 3, 'result'], v: {} },
      { kind: 2, k: ['missing'], v: [1] },
      { kind: 7, k: ['requests'] },
    ]);
    expect(state).toEqual({ requests: [] });
    expect(problems).toEqual([
      'line 1: bad-operation',
      'line 3: bad-operation',
      'line 4: bad-operation',
      'line 5: bad-operation',
    ]);
  });

  it('never reaches an object’s prototype through __proto__ or constructor', () => {
    const { problems } = replay([
      { kind: 0, v: { requests: [] } },
      { kind: 1, k: ['__proto__', 'polluted'], v: true },
      { kind: 1, k: ['constructor', 'prototype', 'polluted'], v: true },
      { kind: 1, k: ['__proto__'], v: { polluted: true } },
    ]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(problems).toHaveLength(3);
  });
});
