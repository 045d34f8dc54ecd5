import { opendir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Conversation } from '../model/pam.js';
import { CONVERSATIONS_DIR, conversationPath } from './layout.js';

async function conversationFiles(bundle: string): Promise<string[]> {
  const dir = join(bundle, CONVERSATIONS_DIR);
  const names: string[] = [];
  try {
    for await (const entry of await opendir(dir))
      if (entry.isFile() && entry.name.endsWith('.json')) names.push(entry.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names.sort().map((name) => join(dir, name));
}

/** How many conversation files a bundle has, and their bytes (for a progress bar). */
export async function bundleSize(bundle: string): Promise<{ files: number; bytes: number }> {
  let bytes = 0;
  const files = await conversationFiles(bundle);
  for (const path of files) bytes += (await stat(path)).size;
  return { files: files.length, bytes };
}

/** Every conversation of a bundle, one file at a time, with the file's text and size. */
export async function* readBundleConversations(
  bundle: string,
): AsyncGenerator<{ conversation: Conversation; text: string; path: string; bytes: number }> {
  for (const path of await conversationFiles(bundle)) {
    const bytes = await readFile(path);
    const text = bytes.toString('utf8');
    yield { conversation: JSON.parse(text) as Conversation, text, path, bytes: bytes.length };
  }
}

/**
 * One conversation of a data folder's bundle by chatgraph's id (a UUID; anything else is not
 * looked up, so no id reaches outside the folder); undefined when the bundle lacks it.
 */
export async function readBundleConversation(
  bundle: string,
  id: string,
): Promise<Conversation | undefined> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return undefined;
  try {
    return JSON.parse(await readFile(conversationPath(bundle, id), 'utf8')) as Conversation;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
