import type { JsonObject } from '../model/pam.js';
import type { ConversionContext } from './provider.js';
import { asArray, asNumber, asObject, asString } from './untrusted.js';

/** One line of a JSON Lines log that parsed: its object (none for a non-object) and number. */
export interface LogLine {
  line: number;
  entry: JsonObject | undefined;
}

/**
 * A JSON Lines log read whole (`LinesValue`, as the reader hands it over) as its lines, with
 * its damage reported by line: a line that is not JSON (an error: its text is lost), and a
 * last line cut short (an agent still writing: a notice, the lines before it are read).
 * Line numbers are the file's, as an editor shows them.
 */
export function logLines(raw: unknown, context: ConversionContext): LogLine[] {
  const value = asObject(raw) ?? {};
  const bad = (asArray(value.badLines) ?? []).flatMap((item) => {
    const object = asObject(item);
    const line = asNumber(object?.line);
    return object && line !== undefined ? [{ line, message: asString(object.message) }] : [];
  });
  for (const { line, message } of bad) {
    context.report({
      level: 'error',
      code: 'malformed-line',
      message: `line ${line} is not valid JSON (${message ?? 'unreadable'}); skipped`,
      record: `line ${line}`,
    });
  }
  if (value.cutLastLine === true) {
    context.report({
      level: 'info',
      code: 'session-being-written',
      message:
        'the last line is incomplete (a session still being written); the lines before it were read',
      record: context.record,
    });
  }
  const numbers = asArray(value.lineNumbers) ?? [];
  return (asArray(value.entries) ?? []).map((entry, i) => ({
    line: asNumber(numbers[i]) ?? i + 1,
    entry: asObject(entry),
  }));
}
