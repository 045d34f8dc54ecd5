/**
 * Timestamps as PAM files carry them: UTC, ISO 8601, always six fraction digits and `Z`, so
 * they sort as strings and satisfy both the spec's validator and the Python SDK's form.
 */

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?/;

/** Formats microseconds since the epoch. */
export function formatMicros(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const rest = micros - ms * 1000;
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 23)}${String(rest).padStart(3, '0')}Z`;
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
    const base = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s));
    if (Number.isNaN(base)) return undefined;
    const fraction = Math.round(Number(`0.${frac || '0'}`) * 1e6);
    let offsetMinutes = 0;
    if (zone && zone !== 'Z' && zone !== 'z') {
      const sign = zone.startsWith('-') ? -1 : 1;
      const digits = zone.slice(1).replace(':', '');
      offsetMinutes = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4) || '0'));
    }
    const micros = (base - offsetMinutes * 60_000) * 1000 + fraction;
    return inRange(micros) ? micros : undefined;
  }
  if (value instanceof Date) return toMicros(value.getTime());
  return undefined;
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
