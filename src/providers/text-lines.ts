import type { ConversionContext } from './provider.js';
import type { LogLine } from './log-lines.js';
import { asObject } from './untrusted.js';

/**
 * A JSON Lines file read beside the claimed one (a file set's side file, given as text) as its
 * lines, with its damage reported by file and line as `logLines` reports the claimed file's: a
 * line that is not JSON (its text is lost), and a last line cut short (still being written).
 */
export function textLines(
  text: string,
  name: string,
  context: Pick<ConversionContext, 'report'>,
): LogLine[] {
  const lines: LogLine[] = [];
  const all = text.split('\n');
  const terminated = text.endsWith('\n');
  all.forEach((raw, i) => {
    const trimmed = raw.trim();
    if (trimmed === '') return;
    try {
      lines.push({ line: i + 1, entry: asObject(JSON.parse(trimmed)) });
    } catch (error) {
      const last = i === all.length - 1 && !terminated;
      context.report(
        last
          ? {
              level: 'info',
              code: 'session-being-written',
              message: `the last line of ${name} is incomplete (a session still being written); the lines before it were read`,
              record: `${name} line ${i + 1}`,
            }
          : {
              level: 'error',
              code: 'malformed-line',
              message: `line ${i + 1} of ${name} is not valid JSON (${error instanceof Error ? error.message : 'unreadable'}); skipped`,
              record: `${name} line ${i + 1}`,
            },
      );
    }
  });
  return lines;
}
