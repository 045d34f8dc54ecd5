import type { OpenedSource } from './open-source.js';
import { readHead } from './head.js';

const HEAD = 64 * 1024;

/**
 * The path of a small file that starts as JSON but ends in the middle of it (an interrupted
 * download cut before its first whole record), or undefined: such a file is an export cut
 * short, which must be named so, never "not a chat export".
 */
export async function cutOffJson(sources: readonly OpenedSource[]): Promise<string | undefined> {
  for (const source of sources) {
    for (const entry of source.entries) {
      if (!/\.json$/i.test(entry.path)) continue;
      const bytes = await readHead(entry, HEAD + 1);
      // Bytes, not characters: a longer file whose first 64 KiB hold multi-byte characters has
      // fewer than 64 Ki characters in its head, which does not make it whole (a Cline task
      // history was called cut off so).
      if (bytes.length > HEAD) continue;
      const head = bytes.toString('utf8').replace(/^\uFEFF/, '');
      if (!/^\s*[[{]/.test(head)) continue;
      try {
        JSON.parse(head);
      } catch (error) {
        if (error instanceof SyntaxError && endsTooSoon(error.message, head.trimEnd().length))
          return entry.displayPath;
      }
    }
  }
  return undefined;
}

/** Whether `JSON.parse` failed because the text stopped, not because of a wrong character. */
function endsTooSoon(message: string, length: number): boolean {
  if (/end of JSON|Unterminated/i.test(message)) return true;
  const position = /position (\d+)/.exec(message)?.[1];
  return position !== undefined && Number(position) >= length;
}
