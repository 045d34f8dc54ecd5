import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chatgptRecord } from './chatgpt-from-samples.js';
import { claudeCodeLog } from './claude-code-from-samples.js';
import { claudeRecord } from './claude-from-samples.js';
import { chatgptHome } from './conversations/chatgpt-home.js';
import { chatgptLanguages } from './conversations/chatgpt-languages.js';
import { chatgptLife } from './conversations/chatgpt-life.js';
import { chatgptWork } from './conversations/chatgpt-work.js';
import { claudeTech } from './conversations/claude-code-and-home.js';
import { claudeCodeSessions } from './conversations/claude-code-sessions.js';
import { claudeLanguages } from './conversations/claude-languages.js';
import { claudeLife } from './conversations/claude-life.js';
import { claudeMemories } from './conversations/claude-memories.js';
import { claudeNovel, novelProject } from './conversations/claude-novel-project.js';
import type { SampleConversation } from './conversations/sample-chat.js';
import { ZipWriter } from './zip-writer.js';
import { jsonArray } from './json-array.js';

// The smallest valid PNG (1×1): the photos users attach, kept tiny in the committed samples.
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d4948445200000001000000010806000000' +
    '1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082',
  'hex',
);

const ACCOUNT = '5a3c1e0b-6d2f-4e8a-9b1c-3f7d2e4a6c01';

function byStart<T extends SampleConversation>(samples: T[]): T[] {
  return [...samples].sort((a, b) => a.start.localeCompare(b.start));
}

/** Writes the written ChatGPT conversations as a ChatGPT export zip, uploads included. */
export async function writeBundledChatgpt(path: string): Promise<void> {
  const records = byStart([
    ...chatgptHome,
    ...chatgptLife,
    ...chatgptWork,
    ...chatgptLanguages,
  ]).map(chatgptRecord);
  const zip = new ZipWriter(path);
  await zip.add(
    'user.json',
    JSON.stringify({
      id: 'user-sample0account',
      email: 'sample@example.org',
      chatgpt_plus_user: true,
    }),
  );
  // ChatGPT lists the newest conversation first.
  await zip.add('conversations.json', jsonArray(records.map((r) => r.conversation).reverse()));
  for (const upload of records.flatMap((r) => r.uploads)) {
    if (upload.text === undefined) await zip.add(upload.entry, PNG, { store: true });
    else await zip.add(upload.entry, upload.text);
  }
  await zip.add('message_feedback.json', '[]');
  await zip.close();
}

/** Writes the written Claude.ai conversations, the novel project and memories as a Claude.ai export zip. */
export async function writeBundledClaude(path: string): Promise<void> {
  const conversations = byStart([...claudeTech, ...claudeLife, ...claudeLanguages, ...claudeNovel]);
  const zip = new ZipWriter(path);
  await zip.add(
    'users.json',
    JSON.stringify([
      {
        uuid: ACCOUNT,
        full_name: 'Sam Sample',
        email_address: 'sample@example.org',
        verified_phone_number: null,
      },
    ]),
  );
  await zip.add(
    'conversations.json',
    jsonArray(conversations.map((c) => claudeRecord(c, ACCOUNT))),
  );
  await zip.add('memories.json', JSON.stringify([{ ...claudeMemories, account_uuid: ACCOUNT }]));
  await zip.add(
    'projects.json',
    JSON.stringify([
      {
        uuid: novelProject.uuid,
        name: novelProject.name,
        description: novelProject.description,
        is_private: true,
        is_starter_project: false,
        prompt_template: novelProject.instructions,
        created_at: novelProject.created_at,
        updated_at: novelProject.updated_at,
        creator: { uuid: ACCOUNT, full_name: 'Sam Sample' },
        docs: novelProject.docs,
      },
    ]),
  );
  await zip.close();
}

/** Writes the written Claude Code sessions as a `~/.claude/projects` folder. */
export async function writeBundledClaudeCode(dir: string): Promise<void> {
  for (const session of byStart(claudeCodeSessions)) {
    const log = claudeCodeLog(session);
    await mkdir(join(dir, log.folder), { recursive: true });
    await writeFile(join(dir, log.folder, log.file), log.text);
  }
}
