import { readFileSync } from 'node:fs';
import type { SourceMap, SourceMapPayload } from 'node:module';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const strings = (value: unknown): string[] | undefined =>
  Array.isArray(value) && value.every((item) => typeof item === 'string') ? value : undefined;

/** What Node's SourceMap reads of a map file (version 3), checked: the file is read from disk. */
function payloadOf(value: unknown): SourceMapPayload | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const sources = 'sources' in value ? strings(value.sources) : undefined;
  const names = 'names' in value ? strings(value.names) : undefined;
  const mappings = 'mappings' in value ? value.mappings : undefined;
  if (sources === undefined || typeof mappings !== 'string') return undefined;
  return {
    file: '',
    version: 3,
    sources,
    sourcesContent: [],
    names: names ?? [],
    mappings,
    sourceRoot: '',
  };
}

/**
 * Stack traces of the shipped CLI name our src/…ts files and lines: a frame in one of our built
 * files (the bundle's chunks, the files tsc wrote beside them) is mapped through the source map
 * beside it when a stack is written, the map read then. Node's own source-map support
 * (`process.setSourceMapsEnabled(true)`) read and indexed the map of every chunk as it loaded,
 * shown or not (~20 ms of a cold keyword search: issue 46), and maps no module loaded before it
 * is turned on (tried on Node 20.20), so it could not be turned on only when an error is shown.
 *
 * `built` is the URL of the folder whose files are mapped (dist/); frames elsewhere (Node's own,
 * node_modules) are written as V8 writes them.
 */
export function mapStacksWhenShown(built: string): void {
  const maps = new Map<string, SourceMap | undefined>();
  const mapOf = (file: string): SourceMap | undefined => {
    if (!maps.has(file)) {
      let map: SourceMap | undefined;
      try {
        const { SourceMap } = process.getBuiltinModule('node:module');
        const payload = payloadOf(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
        map = payload && new SourceMap(payload);
      } catch {
        // No map beside it (or not one Node reads): its frames stay as they are.
        map = undefined;
      }
      maps.set(file, map);
    }
    return maps.get(file);
  };
  const frameText = (frame: NodeJS.CallSite): string => {
    // V8's own words for the frame (its CallSite's toString, which the types do not declare).
    // eslint-disable-next-line @typescript-eslint/no-base-to-string -- CallSite has its own.
    const text = String(frame);
    const url = frame.getFileName();
    const line = frame.getLineNumber();
    const column = frame.getColumnNumber();
    // (V8 gives undefined rather than null for a frame without a file.)
    if (typeof url !== 'string' || line === null || column === null || !url.startsWith(built))
      return text;
    const file = fileURLToPath(url);
    const entry = mapOf(file)?.findEntry(line - 1, column - 1);
    if (entry === undefined || !('originalSource' in entry)) return text;
    const { originalSource } = entry;
    const source = originalSource.startsWith('file:')
      ? fileURLToPath(originalSource)
      : resolve(dirname(file), originalSource);
    return text.replace(
      `${url}:${String(line)}:${String(column)}`,
      `${source}:${String(entry.originalLine + 1)}:${String(entry.originalColumn + 1)}`,
    );
  };
  Error.prepareStackTrace = (error: unknown, frames: NodeJS.CallSite[]): string => {
    let head: string;
    try {
      head = Error.prototype.toString.call(error);
    } catch {
      head = '<error>';
    }
    return [head, ...frames.map((frame) => `    at ${frameText(frame)}`)].join('\n');
  };
}
