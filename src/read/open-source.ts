import { open, opendir, stat } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Entry } from './entry.js';
import { fileEntry } from './file-entry.js';
import { readHead } from './head.js';
import { notRegularKind } from './regular-file.js';
import { makeTempFolder, removeTempFolder } from './temp-folders.js';
import { isZipHead, openZip } from './zip.js';

/** Everything an input path holds, flattened: nested zips are opened in place. */
export interface OpenedSource {
  input: string;
  entries: Entry[];
  problems: Diagnostic[];
  /** Removes the temporary copies of nested zips. */
  close(): Promise<void>;
}

/** Opens a zip (with or without the extension), a folder, or a single file as a list of entries. */
export async function openSource(input: string): Promise<OpenedSource> {
  const info = await stat(input);
  const temps: string[] = [];
  const problems: Diagnostic[] = [];
  const entries: Entry[] = [];
  const display = basename(input) || input;
  if (!info.isDirectory() && !info.isFile()) {
    // Opening a FIFO waits for a writer and a device never ends: neither is read at all.
    problems.push({
      level: 'error',
      code: 'input-not-a-file',
      message: `"${input}" is ${notRegularKind(input) ?? 'not a regular file'}, not a file: chatgraph reads only regular files and folders`,
      file: display,
    });
  } else if (info.isDirectory()) {
    for await (const filePath of walk(input)) {
      const fileInfo = await stat(filePath);
      const rel = relative(input, filePath).split(sep).join('/');
      entries.push(fileEntry(filePath, rel, join(display, rel), fileInfo.size, fileInfo.mtime));
    }
  } else if (await fileIsZip(input)) {
    const listing = await openZip(input, display);
    // A loop, not push(...): a zip may list more entries than a call has room for arguments.
    for (const entry of listing.entries) entries.push(entry);
    for (const problem of listing.problems) problems.push(problem);
  } else {
    entries.push(fileEntry(input, basename(input), display, info.size, info.mtime));
  }
  const expanded = await expandNestedZips(entries, problems, temps, 0);
  return {
    input,
    entries: expanded,
    problems,
    close: async () => {
      await Promise.all(temps.map((dir) => removeTempFolder(dir)));
    },
  };
}

async function fileIsZip(path: string): Promise<boolean> {
  const handle = await open(path, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await handle.read(head, 0, 4, 0);
    return isZipHead(head.subarray(0, bytesRead));
  } finally {
    await handle.close();
  }
}

async function* walk(dir: string): AsyncGenerator<string> {
  const names: string[] = [];
  const directories: string[] = [];
  for await (const dirent of await opendir(dir)) {
    const full = join(dir, dirent.name);
    if (dirent.isDirectory()) directories.push(full);
    else if (dirent.isFile()) names.push(full);
  }
  // Sorted, so the same folder always yields entries in the same order.
  for (const name of names.sort()) yield name;
  for (const sub of directories.sort()) yield* walk(sub);
}

// Claude.ai's 2026 export is a set of zips (conversations-000.zip, projects-000.zip, ...), which
// users often keep together in one folder or zip again: every zip found is opened in place.
async function expandNestedZips(
  entries: Entry[],
  problems: Diagnostic[],
  temps: string[],
  depth: number,
): Promise<Entry[]> {
  const result: Entry[] = [];
  for (const entry of entries) {
    const looksZip = /\.zip$/i.test(entry.path);
    if (!looksZip || depth > 3) {
      result.push(entry);
      continue;
    }
    const head = await readHead(entry, 4);
    if (!isZipHead(head)) {
      result.push(entry);
      continue;
    }
    const zipPath = entry.localFile ?? (await spoolToDisk(entry, temps));
    const listing = await openZip(zipPath, entry.displayPath);
    for (const problem of listing.problems) problems.push(problem);
    const nested = listing.entries.map((inner) => prefixEntry(inner, entry.path));
    for (const inner of await expandNestedZips(nested, problems, temps, depth + 1))
      result.push(inner);
  }
  return result;
}

async function spoolToDisk(entry: Entry, temps: string[]): Promise<string> {
  const dir = await makeTempFolder('zip');
  temps.push(dir);
  const path = join(dir, 'nested.zip');
  await pipeline(await entry.open(), createWriteStream(path));
  return path;
}

function prefixEntry(inner: Entry, outerPath: string): Entry {
  return {
    path: `${outerPath}/${inner.path}`,
    displayPath: inner.displayPath,
    size: inner.size,
    modified: inner.modified,
    ...(inner.crc32 !== undefined ? { crc32: inner.crc32 } : {}),
    ...(inner.compressedSize !== undefined ? { compressedSize: inner.compressedSize } : {}),
    open: () => inner.open(),
  };
}
