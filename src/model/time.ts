/**
 * Timestamps as PAM files carry them: UTC, ISO 8601, always six fraction digits and `Z`, so
 * they sort as strings and satisfy both the spec's validator and the Python SDK's form.
 */

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?/;

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n));

/**
 * Formats microseconds since the epoch (1970–9999). Plain arithmetic (Howard Hinnant's
 * civil-from-days) rather than a Date per call: it runs for every message of an import.
 */
export function formatMicros(micros: number): string {
  const seconds = Math.floor(micros / 1e6);
  const fraction = micros - seconds * 1e6;
  const days = Math.floor(seconds / 86400);
  let rest = seconds - days * 86400;
  const hour = Math.floor(rest / 3600);
  rest -= hour * 3600;
  const minute = Math.floor(rest / 60);
  const second = rest - minute * 60;
  const z = days + 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor(
    (doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365,
  );
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const day = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const month = mp < 10 ? mp + 3 : mp - 9;
  const year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  return `${year}-${pad2(month)}-${pad2(day)}T${pad2(hour)}:${pad2(minute)}:${pad2(second)}.${String(fraction).padStart(6, '0')}Z`;
}

/** Microseconds since the epoch of a date or timestamp, or undefined when it cannot be read. */
export function toMicros(value: unknown): number | undefined {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value <= 0) return undefined;
    // Epoch seconds (ChatGPT floats) or, when too large to be seconds, milliseconds.
    const micros = value > 1e11 ? Math.round(value * 1000) : Math.round(value * 1e6);
    return inRange(micros) ? micros : undefined;
  }
  if (typeof value === 'string') {
    const trimmed = value.trim();
    if (/^\d+(\.\d+)?$/.test(trimmed)) return toMicros(Number(trimmed));
    const m = ISO.exec(trimmed);
    if (!m) return undefined;
    const [, y, mo, d, h = '0', mi = '0', s = '0', frac = '', zone] = m;
    // Date.UTC rolls fields over (month 13 is next January): a field out of range is no date.
    if (!validFields(Number(y), Number(mo), Number(d), Number(h), Number(mi), Number(s)))
      return undefined;
    const base = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
    if (Number.isNaN(base)) return undefined;
    const fraction = Math.round(Number(`0.${frac || '0'}`) * 1e6);
    let offsetMinutes = 0;
    if (zone && zone !== 'Z' && zone !== 'z') {
      const sign = zone.startsWith('-') ? -1 : 1;
      const digits = zone.slice(1).replace(':', '');
      const [zoneHours, zoneMinutes] = [
        Number(digits.slice(0, 2)),
        Number(digits.slice(2, 4) || '0'),
      ];
      if (zoneHours > 23 || zoneMinutes > 59) return undefined;
      offsetMinutes = sign * (zoneHours * 60 + zoneMinutes);
    }
    const micros = (base - offsetMinutes * 60_000) * 1000 + fraction;
    return inRange(micros) ? micros : undefined;
  }
  if (value instanceof Date) return toMicros(value.getTime());
  return undefined;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Whether the fields name a real moment (a leap second, :60, is taken as the next minute). */
function validFields(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : (DAYS_IN_MONTH[month - 1] ?? 31);
  return day <= days && hour <= 23 && minute <= 59 && second <= 60;
}

function inRange(micros: number): boolean {
  // Years 1970..9999: anything else is a corrupt value, not a date.
  return micros > 0 && micros < 253402300800000000;
}

/** The PAM form of a timestamp, or undefined when the value is not one. */
export function toTimestamp(value: unknown): string | undefined {
  const micros = toMicros(value);
  return micros === undefined ? undefined : formatMicros(micros);
}

/** The PAM form of the current time, or of `SOURCE_DATE_EPOCH`-style seconds when given. */
export function timestampOf(date: Date): string {
  return formatMicros(date.getTime() * 1000);
}

/**
 * A PAM timestamp as Pydantic writes it (the official Python SDK): `…SSZ` when the fraction is
 * zero, else exactly six digits. The SDK hashes memories in this form, so memory times must be
 * written so for the integrity checksum to agree. Anything not in PAM's form is returned as is.
 */
export function toPydanticTime(timestamp: string): string {
  const m = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d{1,6}))?Z$/.exec(timestamp);
  if (!m) return timestamp;
  const [, base = '', fraction = ''] = m;
  const digits = fraction.padEnd(6, '0');
  return /^0*$/.test(digits) ? `${base}Z` : `${base}.${digits}Z`;
}
