import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataFolder } from '../../src/index.js';
import {
  inviteMachine,
  joinGroup,
  openGroup,
  syncFolder,
  type SyncReport,
} from '../../src/api/sync.js';
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

/** A machine of the tests: its data folder and its config folder (its keys and id). */
export interface TestMachine {
  name: string;
  data: string;
  config: string;
}

/**
 * Machines joined into one group of `dir` through the group layer (the first founds it, each
 * other joins with an invite from the first; scrypt kept cheap, as the layer's own tests do).
 */
export async function joinMachines(dir: string, machines: readonly TestMachine[]): Promise<void> {
  const [first, ...others] = machines;
  if (!first) return;
  mkdirSync(dir, { recursive: true });
  await openGroup(dir, { configDir: first.config, name: first.name, create: true });
  for (const machine of others) {
    const { code } = await inviteMachine(dir, { configDir: first.config, scryptLogN: 10 });
    await joinGroup(dir, code, { configDir: machine.config, name: machine.name, scryptLogN: 10 });
  }
}

/** One sync of `machine` through `dir`, in process, as `chatgraph sync DIR` runs it. */
export async function syncOnce(machine: TestMachine, dir: string): Promise<SyncReport> {
  const group = await openGroup(dir, { configDir: machine.config, create: false });
  const folder = await DataFolder.open(machine.data);
  try {
    return await syncFolder(folder, group, dir);
  } finally {
    await folder.close();
  }
}
