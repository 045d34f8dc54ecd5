import { toTimestamp } from '../model/time.js';
import { QueryError } from './store.js';

/** A `since`/`until` bound as a stored timestamp, or a QueryError naming the option. */
export function dateBound(value: string, option: string): string {
  const time = toTimestamp(value);
  if (time === undefined || !/^\d{4}-\d{2}/.test(value)) {
    throw new QueryError(
      `${option} takes a date like 2024-05-01 or 2024-05-01T10:00:00Z, not "${value}"`,
    );
  }
  return time;
}
