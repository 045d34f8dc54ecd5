// The days of a usage report on the UTC days a zone changes its offset: the time zone is asked
// twice a UTC day, and a day whose offsets differ is asked per quarter hour.
import { describe, expect, it } from 'vitest';
import type { TokenSlot } from '../stores/usage-reader.js';
import { SHIPPED_PRICES } from './prices.js';
import { summarizeUsage } from './usage-report.js';

const slot = (at: string, input: number): TokenSlot => ({
  slot: at,
  conversationId: 'c',
  model: 'gpt-5',
  long: false,
  input,
  output: 0,
  cacheRead: 0,
  cacheCreation: 0,
  reasoning: 0,
});

function days(timeZone: string, slots: TokenSlot[]): Record<string, number> {
  const report = summarizeUsage(
    { slots, conversations: [{ id: 'c', source: 'codex', title: '', project: null }] },
    [],
    { by: 'day', prices: SHIPPED_PRICES, timeZone },
  );
  return Object.fromEntries(report.rows.map((r) => [r.period, r.input_tokens]));
}

describe('usage days across a change of offset', () => {
  it('puts each quarter hour of New York’s fall-back UTC day on its local day', () => {
    // 1 November 2026: EDT (-4) until 06:00Z, EST (-5) after.
    expect(
      days('America/New_York', [
        slot('2026-11-01T03:45', 1), // 23:45 EDT on 31 October
        slot('2026-11-01T04:30', 10), // 00:30 EDT on 1 November (EST would say 31 October)
        slot('2026-11-01T23:45', 100), // 18:45 EST
        slot('2026-11-02T04:45', 1000), // 23:45 EST on 1 November
        slot('2026-11-02T05:00', 10000), // midnight EST, 2 November
      ]),
    ).toEqual({ '2026-10-31': 1, '2026-11-01': 1110, '2026-11-02': 10000 });
  });

  it('and of Adelaide’s, whose offset is in half hours', () => {
    // 5 April 2026, 03:00 ACDT (+10:30) is 02:00 ACST (+9:30): 4 April 16:30Z.
    expect(
      days('Australia/Adelaide', [
        slot('2026-04-04T13:15', 1), // 23:45 ACDT on 4 April
        slot('2026-04-04T13:30', 10), // midnight ACDT, 5 April (ACST would say 4 April)
        slot('2026-04-05T14:15', 100), // 23:45 ACST on 5 April
        slot('2026-04-05T14:30', 1000), // midnight ACST, 6 April
      ]),
    ).toEqual({ '2026-04-04': 1, '2026-04-05': 110, '2026-04-06': 1000 });
  });
});
