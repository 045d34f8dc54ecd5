import { timestampOf, toTimestamp } from '../model/time.js';
import { editDistance } from '../search/did-you-mean.js';
import { QueryError } from './store.js';

const UNIT_MS = { h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 } as const;

/**
 * A date bound as a stored timestamp: an ISO date or timestamp (`2024-05-01`,
 * `2024-05-01T10:00:00Z`), a time back from `now` (`24h`, `7d`, `2w`), or `today` /
 * `yesterday` (midnight UTC). Undefined when the text is none of these.
 */
export function parseDateBound(text: string, now: Date): string | undefined {
  const value = text.trim().toLowerCase();
  const relative = /^(\d{1,5})\s*([hdw])$/.exec(value);
  if (relative) {
    const [, count = '0', unit = 'd'] = relative;
    return timestampOf(new Date(now.getTime() - Number(count) * UNIT_MS[unit as 'h' | 'd' | 'w']));
  }
  if (value === 'today' || value === 'yesterday') {
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    return timestampOf(new Date(midnight - (value === 'yesterday' ? UNIT_MS.d : 0)));
  }
  if (!/^\d{4}-\d{2}/.test(value)) return undefined;
  return toTimestamp(text.trim());
}

/** What {@link parseDateBound} takes, for messages. */
export const DATE_BOUND_FORMS =
  'a date like 2024-05-01 or 2024-05-01T10:00:00Z, or 24h, 7d, 2w, today or yesterday';

/**
 * The form {@link parseDateBound} takes closest to what was typed, when it looks like a slip:
 * `yesterdy` → `yesterday`, `7 days` → `7d`. Undefined when nothing is near.
 */
export function nearDateBound(text: string): string | undefined {
  const value = text.trim().toLowerCase();
  const spelled = /^(\d{1,5})\s*(h|hours?|hrs?|d|days?|w|weeks?|wks?)$/.exec(value);
  if (spelled) return `${spelled[1] ?? ''}${(spelled[2] ?? 'd').charAt(0)}`;
  return ['today', 'yesterday'].find((word) => editDistance(value, word, 2) <= 2);
}

/** A `since`/`until` bound as a stored timestamp, or a QueryError naming the option. */
export function dateBound(value: string, option: string, now: Date = new Date()): string {
  const time = parseDateBound(value, now);
  if (time === undefined) {
    const near = nearDateBound(value);
    throw new QueryError(
      `${option} takes ${DATE_BOUND_FORMS}, not "${value}"${near !== undefined ? ` (did you mean ${near}?)` : ''}`,
    );
  }
  return time;
}
