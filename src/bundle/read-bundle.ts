import { stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Diagnostic } from '../model/diagnostic.js';
import type { Conversation } from '../model/pam.js';
import type { Bundle } from './bundle.js';
import { SealedFileError, type SealedFiles } from './sealed-files.js';
import { FileTooLargeError, NotARegularFileError } from '../read/regular-file.js';

/**
 * PAM's conversation schema (zod 4, 400 kB of it), loaded when a conversation file is read: the
 * data folder that imports this module is opened by every command, most of which (a `search`)
 * read no conversation file (issue 46).
 */
const schema = async (): Promise<typeof import('./conversation-schema.js')> =>
  import('./conversation-schema.js');

async function conversationFiles(bundle: Bundle): Promise<string[]> {
  const dir = bundle.layout.conversations;
  // Through the seal: an encrypted folder's `<id>.json.age` is listed as `<id>.json`.
  const names = (await bundle.files.names(dir)).filter((name) => name.endsWith('.json'));
  return names.sort().map((name) => join(dir, name));
}

/** How many conversation files a bundle has, and their bytes (for a progress bar). */
export async function bundleSize(bundle: Bundle): Promise<{ files: number; bytes: number }> {
  let bytes = 0;
  const files = await conversationFiles(bundle);
  for (const path of files) bytes += (await stat(bundle.files.onDisk(path))).size;
  return { files: files.length, bytes };
}

/** A bundle's conversation file, read but not parsed: its path, text and size. */
export interface BundleFileText {
  path: string;
  /** The conversation id its name gives (`conversations/<id>.json`). */
  id: string;
  text: string;
  bytes: number;
  /** Why the file could not be read at all (then `text` is empty). */
  unreadable?: string;
}

/** Every conversation file of a bundle as text, one at a time (for what needs no parse). */
/**
 * A file's bytes through the seal; none for a sealed file that does not open (damaged, cut
 * off), so it is reported as an unreadable file, as a damaged plain file is, not a crash.
 */
async function readSealedOrEmpty(
  files: SealedFiles,
  path: string,
): Promise<{ bytes: Buffer; unreadable?: string }> {
  try {
    return { bytes: await files.read(path) };
  } catch (error) {
    if (error instanceof NotARegularFileError)
      return { bytes: Buffer.alloc(0), unreadable: `${error.kind}, not a regular file` };
    if (error instanceof FileTooLargeError)
      return { bytes: Buffer.alloc(0), unreadable: 'too large to read whole' };
    if (!(error instanceof SealedFileError)) throw error;
    return { bytes: Buffer.alloc(0), unreadable: 'an encrypted file that does not open' };
  }
}

export async function* readBundleTexts(bundle: Bundle): AsyncGenerator<BundleFileText> {
  for (const path of await conversationFiles(bundle)) {
    const { bytes, unreadable } = await readSealedOrEmpty(bundle.files, path);
    const text = bytes.toString('utf8');
    yield {
      path,
      id: basename(path, '.json'),
      text,
      bytes: bytes.length,
      ...(unreadable ? { unreadable } : {}),
    };
  }
}

/**
 * Every conversation of a bundle, one file at a time, with the file's text and size, each
 * checked against PAM's shape. A file that is not one (damaged, edited by hand) is left out and
 * given to `onProblem` as a diagnostic naming it; the others go on.
 */
export async function* readBundleConversations(
  bundle: Bundle,
  onProblem: (problem: Diagnostic) => void,
): AsyncGenerator<{ conversation: Conversation; text: string; path: string; bytes: number }> {
  const { parseConversationFile } = await schema();
  for await (const { path, text, bytes, unreadable } of readBundleTexts(bundle)) {
    if (unreadable !== undefined) {
      onProblem(badBundleFile(path, unreadable));
      continue;
    }
    const parsed = parseConversationFile(text);
    if (parsed.ok) yield { conversation: parsed.conversation, text, path, bytes };
    else onProblem(badBundleFile(path, parsed.reason));
  }
}

/** The diagnostic of a bundle file that is not a PAM conversation. */
function badBundleFile(path: string, reason: string): Diagnostic {
  return {
    level: 'error',
    code: 'bad-bundle-file',
    message: `this bundle file is ${reason}; left out (import its export again, with --force, to write it anew)`,
    file: path,
  };
}

/** A bundle file that is not a PAM conversation, when one was asked for by id. */
export class BadBundleFileError extends Error {
  constructor(readonly diagnostic: Diagnostic) {
    super(`${diagnostic.file ?? 'a bundle file'}: ${diagnostic.message}`);
    this.name = 'BadBundleFileError';
  }
}

/**
 * One conversation of a data folder's bundle by chatgraph's id (a UUID; anything else is not
 * looked up, so no id reaches outside the folder); undefined when the bundle lacks it. A file
 * that is not a PAM conversation is a {@link BadBundleFileError} naming it.
 */
export async function readBundleConversation(
  bundle: Bundle,
  id: string,
): Promise<Conversation | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return undefined;
  const path = bundle.layout.conversation(id);
  const text = await bundle.files.readText(path);
  if (text === undefined) return undefined;
  const parsed = (await schema()).parseConversationFile(text);
  if (!parsed.ok) throw new BadBundleFileError(badBundleFile(path, parsed.reason));
  return parsed.conversation;
}
