import { timestampOf } from '../model/time.js';
import { parseDateBound } from '../stores/date-bound.js';
import { QueryError } from '../stores/store.js';
import type { OffsetStretch, UsageGrain } from '../stores/usage-reader.js';

// A usage report's time zone: its days, and its bounds as dates at local midnight.

const MINUTE = 60_000;
const QUARTER_HOUR = 15 * MINUTE;
const DAY = 86_400_000;

/** The time zone's offset from UTC at an instant, in minutes. */
function offsetMinutes(zone: Intl.DateTimeFormat, at: number): number {
  const parts = Object.fromEntries(zone.formatToParts(new Date(at)).map((p) => [p.type, p.value]));
  const local = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour) % 24,
    Number(parts.minute),
  );
  return Math.round((local - Math.floor(at / MINUTE) * MINUTE) / MINUTE);
}

export function zoneFormat(timeZone: string): Intl.DateTimeFormat {
  try {
    return new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
    });
  } catch {
    throw new QueryError(`no such time zone: "${timeZone}" (an IANA name like Europe/Paris)`);
  }
}

/**
 * A bound as a stored timestamp: a plain date is its midnight in the report's time zone (a
 * day of the report starts there), anything else as `list --since` reads it.
 */
export function boundOf(
  text: string,
  option: string,
  zone: Intl.DateTimeFormat,
  now: Date,
): string | undefined {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (day) {
    const utc = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    let at = utc - offsetMinutes(zone, utc) * MINUTE;
    at = utc - offsetMinutes(zone, at) * MINUTE;
    return timestampOf(new Date(at));
  }
  const bound = parseDateBound(text, now);
  if (bound === undefined)
    throw new QueryError(
      `${option} takes a date like 2026-01-02 (midnight in the report's time zone), a time like 2026-01-02T10:00:00Z, or 24h, 7d, 2w, today or yesterday, not "${text}"`,
    );
  return bound;
}

/**
 * The local day (YYYY-MM-DD) of quarter hours, asking the time zone its offset twice a UTC day
 * rather than for every quarter hour (`formatToParts` was most of a million-message report): a
 * UTC day whose first and last quarter hours have one offset has it throughout (no zone changes
 * its offset and back within a day).
 */
function dayFinder(zone: Intl.DateTimeFormat): (slot: string) => string {
  const offsets = new Map<string, number | null>();
  return (slot) => {
    const at = Date.parse(`${slot}:00Z`);
    const utcDay = slot.slice(0, 10);
    let offset = offsets.get(utcDay);
    if (offset === undefined) {
      const start = Date.parse(`${utcDay}T00:00:00Z`);
      const first = offsetMinutes(zone, start);
      offset = first === offsetMinutes(zone, start + 95 * 15 * MINUTE) ? first : null;
      offsets.set(utcDay, offset);
    }
    return new Date(at + (offset ?? offsetMinutes(zone, at)) * MINUTE).toISOString().slice(0, 10);
  };
}

/**
 * The zone's offsets over the UTC days from `first`'s to `last`'s (slots), read as `dayFinder`
 * reads them: a UTC day whose first and last quarter hours have one offset has it throughout,
 * any other is asked quarter hour by quarter hour. What a store cuts local days by in its own
 * query, a fixed offset per stretch.
 */
function stretchesOf(zone: Intl.DateTimeFormat, first: string, last: string): OffsetStretch[] {
  const stretches: OffsetStretch[] = [];
  const at = (time: number, minutes: number): void => {
    if (stretches.at(-1)?.minutes !== minutes)
      stretches.push({ from: new Date(time).toISOString().slice(0, 16), minutes });
  };
  const end = Date.parse(`${last.slice(0, 10)}T00:00:00Z`);
  let day = Date.parse(`${first.slice(0, 10)}T00:00:00Z`);
  // The zone asked once a day (two years of days were 50 ms of a report): a day that ends with
  // the offset the next starts with kept it throughout, as `dayFinder` assumes.
  for (let offset = offsetMinutes(zone, day); day <= end; day += DAY) {
    const next = offsetMinutes(zone, day + DAY);
    if (next === offset || offset === offsetMinutes(zone, day + 95 * QUARTER_HOUR)) at(day, offset);
    else
      for (let quarter = 0; quarter < 96; quarter++)
        at(day + quarter * QUARTER_HOUR, offsetMinutes(zone, day + quarter * QUARTER_HOUR));
    offset = next;
  }
  return stretches;
}

/** The Monday of a day's week (ISO weeks start on Monday). */
export function mondayOf(day: string): string {
  const at = Date.parse(`${day}T00:00:00Z`);
  const weekday = (new Date(at).getUTCDay() + 6) % 7;
  return new Date(at - weekday * 86_400_000).toISOString().slice(0, 10);
}

/** The report's days in a zone: a slot's own, and the zone's offsets over a span of slots. */
export function dayGrain(zone: Intl.DateTimeFormat): UsageGrain {
  return {
    by: 'day',
    dayOf: dayFinder(zone),
    stretches: (first, last) => stretchesOf(zone, first, last),
  };
}
