import type { Entry } from './entry.js';
import { JsonSplitter, type JsonItem } from './json-splitter.js';
import { JsonlSplitter } from './jsonl-splitter.js';

/** How an entry's records are laid out. */
export type RecordFormat = { kind: 'json'; streamKeys?: readonly string[] } | { kind: 'jsonl' };

/** Progress callback: bytes of the entry consumed so far. */
export type BytesRead = (bytes: number) => void;

/**
 * Streams an entry's records. A stream error (a corrupt zip, a read failure) ends the entry with
 * a problem that gives the byte offset reached; the records before it have been yielded.
 */
export async function* readRecords(
  entry: Entry,
  format: RecordFormat,
  onBytes?: BytesRead,
): AsyncGenerator<JsonItem> {
  const splitter =
    format.kind === 'jsonl' ? new JsonlSplitter() : new JsonSplitter(format.streamKeys ?? []);
  let bytes = 0;
  let stream;
  try {
    stream = await entry.open();
  } catch (error) {
    yield { kind: 'problem', code: 'unreadable-file', message: describe(error), offset: 0 };
    return;
  }
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      onBytes?.(chunk.length);
      yield* splitter.push(chunk);
    }
  } catch (error) {
    stream.destroy();
    yield* splitter.end().filter((item) => item.kind === 'value');
    yield {
      kind: 'problem',
      code: 'corrupt-file',
      message: `reading stopped at byte ${bytes}: ${describe(error)}; the records before it were read`,
      offset: bytes,
    };
    return;
  }
  yield* splitter.end();
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
