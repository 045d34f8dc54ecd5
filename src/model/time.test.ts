import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMicros, toPydanticTime, toTimestamp } from './time.js';

describe('toTimestamp', () => {
  it('writes UTC with six fraction digits', () => {
    expect(toTimestamp(1714585031.150442)).toBe('2024-05-01T17:37:11.150442Z');
    expect(toTimestamp('2024-10-18T05:30:20.458713Z')).toBe('2024-10-18T05:30:20.458713Z');
    expect(toTimestamp('2024-10-18T05:30:20Z')).toBe('2024-10-18T05:30:20.000000Z');
    expect(toTimestamp('2024-10-18T07:30:20.5+02:00')).toBe('2024-10-18T05:30:20.500000Z');
    expect(toTimestamp('2024-10-18 05:30:20')).toBe('2024-10-18T05:30:20.000000Z');
  });

  it('reads milliseconds, and repairs the cut-off offsets seen in exports', () => {
    expect(toTimestamp(1714585031150)).toBe('2024-05-01T17:37:11.150000Z');
    expect(toTimestamp('2023-10-07T07:03:01.693863+')).toBe('2023-10-07T07:03:01.693863Z');
  });

  it('gives undefined for what is not a time, never "now"', () => {
    for (const value of [null, undefined, 0, -5, '', 'yesterday', {}, [], Number.NaN, 1e20]) {
      expect(toTimestamp(value)).toBeUndefined();
    }
  });

  it('refuses a date whose fields are out of range rather than rolling it over', () => {
    for (const value of [
      '2024-13-45',
      '2024-00-10',
      '2024-02-30',
      '2023-02-29',
      '2024-04-31',
      '2024-01-00',
      '2024-01-01T24:00:00Z',
      '2024-01-01T10:60:00Z',
      '2024-01-01T10:00:61Z',
      '2024-01-01T10:00:00+25:00',
    ])
      expect(toTimestamp(value), value).toBeUndefined();
    expect(toTimestamp('2024-02-29')).toBe('2024-02-29T00:00:00.000000Z');
    expect(toTimestamp('2000-02-29T23:59:59Z')).toBe('2000-02-29T23:59:59.000000Z');
  });

  it('reads every valid calendar date as itself, and none out of range (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1970, max: 9998 }),
        fc.integer({ min: 0, max: 14 }),
        fc.integer({ min: 0, max: 33 }),
        (year, month, day) => {
          const text = `${String(year)}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
          const date = new Date(Date.UTC(year, month - 1, day));
          // Real when Date does not roll it over into another month or year.
          const real =
            month >= 1 &&
            month <= 12 &&
            day >= 1 &&
            date.getUTCMonth() === month - 1 &&
            date.getUTCDate() === day;
          const read = toTimestamp(text);
          if (real && date.getTime() > 0) expect(read).toBe(`${text}T00:00:00.000000Z`);
          else if (!real) expect(read).toBeUndefined();
        },
      ),
    );
  });

  it('formats every instant as Date does, to the microsecond', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 7_000_000_000_000 }),
        fc.integer({ min: 0, max: 999 }),
        (ms, us) => {
          const expected = `${new Date(ms).toISOString().slice(0, 23)}${String(us).padStart(3, '0')}Z`;
          expect(formatMicros(ms * 1000 + us)).toBe(expected);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('sorts as strings in the order of the instants', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 4e9 }), fc.integer({ min: 1, max: 4e9 }), (a, b) => {
        const ta = toTimestamp(a + 0.25) ?? '';
        const tb = toTimestamp(b + 0.25) ?? '';
        expect(Math.sign(ta.localeCompare(tb))).toBe(Math.sign(a - b));
      }),
    );
  });
});

describe('toPydanticTime', () => {
  it('writes what Pydantic writes: no fraction when it is zero, else six digits', () => {
    expect(toPydanticTime('2024-10-18T05:30:20.000000Z')).toBe('2024-10-18T05:30:20Z');
    expect(toPydanticTime('2024-10-18T05:30:20.123000Z')).toBe('2024-10-18T05:30:20.123000Z');
    expect(toPydanticTime('2024-10-18T05:30:20.5Z')).toBe('2024-10-18T05:30:20.500000Z');
  });

  it('names the same instant as the six-digit form, for every instant (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 253_402_300_799_999 }), (ms) => {
        const full = formatMicros(ms * 1000);
        const short = toPydanticTime(full);
        expect(new Date(short).getTime()).toBe(new Date(full).getTime());
        expect(short).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?Z$/);
        expect(short.endsWith('.000000Z')).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });
});
