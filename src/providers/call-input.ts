import type { JsonObject } from '../model/pam.js';
import { asObject } from './untrusted.js';

/**
 * A tool call's arguments as PAM keeps them: an object as it is; a JSON text of an object (the
 * OpenAI wire form, `"{\"path\":\"a.py\"}"`) parsed; any other text kept as text; nothing as null.
 */
export function callInput(value: unknown): JsonObject | string | null {
  const object = asObject(value);
  if (object) return object;
  if (typeof value !== 'string')
    return value === undefined || value === null ? null : JSON.stringify(value);
  if (value.trim() === '') return null;
  try {
    return asObject(JSON.parse(value)) ?? value;
  } catch {
    // Not JSON (a custom tool's free text, or arguments cut short): kept as written.
    return value;
  }
}
