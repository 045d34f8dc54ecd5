import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { chatgptConversations, type ChatgptSampleOptions } from './chatgpt-sample.js';
import { claudeConversations } from './claude-sample.js';
import { ZipWriter } from './zip-writer.js';
import { jsonArray } from './json-array.js';
import {
  writeBundledChatgpt,
  writeBundledClaude,
  writeBundledClaudeCode,
} from './bundled-samples.js';

export { jsonArray } from './json-array.js';

// The smallest valid PNG (1×1), for image attachments that really are in the export.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082',
  'hex',
);

/** Writes a ChatGPT export zip (conversations.json, user.json, image files). */
export async function writeChatgptExport(
  path: string,
  options: Omit<ChatgptSampleOptions, 'assetIds'>,
): Promise<void> {
  const zip = new ZipWriter(path);
  const assetIds = ['file-Sample0Image1', 'file-Sample0Image2'];
  await zip.add(
    'user.json',
    JSON.stringify({
      id: 'user-sample0account',
      email: 'sample@example.org',
      chatgpt_plus_user: false,
    }),
  );
  await zip.add('conversations.json', jsonArray(chatgptConversations({ ...options, assetIds })));
  for (const id of assetIds) await zip.add(`${id}-diagram.png`, PNG, { store: true });
  await zip.add('message_feedback.json', '[]');
  await zip.close();
}

/** Writes a Claude.ai export zip (conversations.json, users.json, memories.json, projects.json). */
export async function writeClaudeExport(
  path: string,
  options: { seed: number; conversations: number },
): Promise<void> {
  const account = '5a3c1e0b-0000-4000-8000-00000000c1a0';
  const zip = new ZipWriter(path);
  await zip.add(
    'users.json',
    JSON.stringify([
      {
        uuid: account,
        full_name: 'Sample User',
        email_address: 'sample@example.org',
        verified_phone_number: null,
      },
    ]),
  );
  await zip.add(
    'conversations.json',
    jsonArray(claudeConversations({ ...options, accountId: account })),
  );
  await zip.add(
    'memories.json',
    JSON.stringify([
      {
        conversations_memory:
          'The user bakes sourdough and runs marathons; prefers short answers with code.',
        project_memories: {
          '7d1f0000-0000-4000-8000-0000000000aa': 'Project Bread: tracking hydration experiments.',
        },
        account_uuid: account,
      },
    ]),
  );
  await zip.add(
    'projects.json',
    JSON.stringify([
      {
        uuid: '7d1f0000-0000-4000-8000-0000000000aa',
        name: 'Bread',
        description: 'Sourdough experiments',
        is_private: true,
        is_starter_project: false,
        prompt_template: 'Answer as a baker.',
        created_at: '2025-03-01T10:00:00.000000Z',
        updated_at: '2025-03-02T10:00:00.000000Z',
        creator: { uuid: account, full_name: 'Sample User' },
        docs: [
          {
            uuid: '7d1f0000-0000-4000-8000-0000000000bb',
            filename: 'hydration.md',
            content: '# Hydration\n75% works best for this flour.',
            created_at: '2025-03-01T10:00:00.000000Z',
          },
        ],
      },
    ]),
  );
  await zip.close();
}

/**
 * Writes the bundled samples, conversations written by hand: a ChatGPT and a Claude.ai export
 * and a Claude Code projects folder (`claude-code/`).
 */
export async function writeSamples(dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const chatgpt = join(dir, 'chatgpt-export.zip');
  const claude = join(dir, 'claude-export.zip');
  const claudeCode = join(dir, 'claude-code');
  await writeBundledChatgpt(chatgpt);
  await writeBundledClaude(claude);
  await writeBundledClaudeCode(claudeCode);
  return [chatgpt, claude, claudeCode];
}
