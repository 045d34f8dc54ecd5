import { describe, expect, it } from 'vitest';
import { QueryError } from './store.js';
import { dateBound, parseDateBound } from './date-bound.js';

const NOW = new Date('2026-12-01T10:30:00.000000Z');

describe('parseDateBound', () => {
  it('reads times back from now', () => {
    expect(parseDateBound('24h', NOW)).toBe('2026-11-30T10:30:00.000000Z');
    expect(parseDateBound('7d', NOW)).toBe('2026-11-24T10:30:00.000000Z');
    expect(parseDateBound('2w', NOW)).toBe('2026-11-17T10:30:00.000000Z');
    expect(parseDateBound(' 7D ', NOW)).toBe('2026-11-24T10:30:00.000000Z');
  });

  it('reads today and yesterday as midnight UTC', () => {
    expect(parseDateBound('today', NOW)).toBe('2026-12-01T00:00:00.000000Z');
    expect(parseDateBound('yesterday', NOW)).toBe('2026-11-30T00:00:00.000000Z');
  });

  it('reads ISO dates and timestamps as before', () => {
    expect(parseDateBound('2024-05-01', NOW)).toBe('2024-05-01T00:00:00.000000Z');
    expect(parseDateBound('2024-05-01T10:00:00+02:00', NOW)).toBe('2024-05-01T08:00:00.000000Z');
  });

  it('refuses anything else', () => {
    for (const text of ['', 'last week', '7', '7y', '-7d', '12345678', 'd7'])
      expect(parseDateBound(text, NOW), text).toBeUndefined();
    expect(() => dateBound('soon', '--since', NOW)).toThrow(QueryError);
    expect(() => dateBound('soon', '--since', NOW)).toThrow(/--since takes .*7d.*"soon"/);
  });
});
