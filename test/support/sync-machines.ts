import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataFolder } from '../../src/index.js';
import { msg, node } from './chatgpt-builder.js';

/** A ChatGPT export of one question and answer, whose texts name `word`. */
export function chatExport(file: string, id: string, word: string): string {
  const mapping = {
    root: node('root', null, [`${id}-q`], null),
    [`${id}-q`]: node(
      `${id}-q`,
      'root',
      [`${id}-a`],
      msg(`${id}-q`, 'user', `Tell me about ${word} please`, 1_700_000_001),
    ),
    [`${id}-a`]: node(
      `${id}-a`,
      `${id}-q`,
      [],
      msg(`${id}-a`, 'assistant', `The ${word} answer is long`, 1_700_000_002),
    ),
  };
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(
    file,
    JSON.stringify([
      {
        id,
        conversation_id: id,
        title: `About ${word}`,
        create_time: 1_700_000_000,
        update_time: 1_700_000_002,
        current_node: `${id}-a`,
        mapping,
      },
    ]),
  );
  return file;
}

/** What a data folder holds, as sets: conversations with their messages, and its memories. */
export async function holdings(
  data: string,
): Promise<{ conversations: string[]; memories: string[] }> {
  const folder = await DataFolder.open(data);
  try {
    const digests = await folder.syncDigests();
    const conversations: string[] = [];
    for (const id of Object.keys(digests.conversations)) {
      const conversation = await folder.pamConversation(id);
      const texts = (conversation?.messages ?? [])
        .map((m) => `${m.id}=${m.content?.text ?? ''}`)
        .sort();
      conversations.push(`${id}:${conversation?.title ?? ''}:${texts.join('|')}`);
    }
    const page = await folder.memories({ status: 'all', limit: 200 });
    const memories = page.items.map((m) => `${m.id}:${m.status}:${m.content}`);
    return { conversations: conversations.sort(), memories: memories.sort() };
  } finally {
    await folder.close();
  }
}
