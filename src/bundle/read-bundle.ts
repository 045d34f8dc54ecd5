import { opendir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Conversation } from '../model/pam.js';
import { CONVERSATIONS_DIR } from './layout.js';

/** Every conversation of a bundle, one file at a time, with the file's text. */
export async function* readBundleConversations(
  bundle: string,
): AsyncGenerator<{ conversation: Conversation; text: string; path: string }> {
  const dir = join(bundle, CONVERSATIONS_DIR);
  const names: string[] = [];
  try {
    for await (const entry of await opendir(dir))
      if (entry.isFile() && entry.name.endsWith('.json')) names.push(entry.name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  for (const name of names.sort()) {
    const path = join(dir, name);
    const text = await readFile(path, 'utf8');
    yield { conversation: JSON.parse(text) as Conversation, text, path };
  }
}
