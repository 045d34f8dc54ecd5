/** Readers for untrusted export JSON: each returns the value only when it has the expected type. */

import type { JsonObject } from '../model/pam.js';

/** The value when it is a plain object. */
export function asObject(value: unknown): JsonObject | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as JsonObject)
    : undefined;
}

/** The value when it is an array. */
export function asArray(value: unknown): unknown[] | undefined {
  return Array.isArray(value) ? value : undefined;
}

/** The value when it is a string. */
export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** The value when it is a non-empty string. */
export function asText(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/** The value when it is a finite number. */
export function asNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A non-negative integer, or null. */
export function asCount(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}

/** The object without the named keys (what is left to keep verbatim in `raw_metadata`). */
export function without(object: JsonObject, keys: readonly string[]): JsonObject {
  const rest: JsonObject = {};
  for (const [key, value] of Object.entries(object)) {
    if (!keys.includes(key) && value !== undefined) rest[key] = value;
  }
  return rest;
}

/** An absolute URL, as the PAM citation schema requires (`format: uri`), or null. */
export function asAbsoluteUrl(value: unknown): string | null {
  if (typeof value !== 'string' || !/^[a-zA-Z][a-zA-Z0-9+.-]*:/.test(value)) return null;
  try {
    return new URL(value).href === '' ? null : value;
  } catch {
    return null;
  }
}
