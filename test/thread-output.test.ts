import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';

const run = promisify(execFile);
const CLI = join(ROOT, 'dist', 'cli', 'main.js');

describe('chatgraph thread', () => {
  it('prints no blank hidden messages (ChatGPT’s empty system prompt)', async () => {
    const message = (
      id: string,
      role: string,
      text: string,
      time: number | null,
      hidden = false,
    ) => ({
      id,
      author: { role, metadata: {} },
      create_time: time,
      content: { content_type: 'text', parts: [text] },
      metadata: hidden ? { is_visually_hidden_from_conversation: true } : {},
      recipient: 'all',
    });
    const conversation = {
      id: 'th-1',
      conversation_id: 'th-1',
      title: 'With a hidden system message',
      create_time: 1_700_000_000,
      update_time: 1_700_000_100,
      current_node: 'a',
      mapping: {
        root: { id: 'root', parent: null, children: ['sys'], message: null },
        sys: {
          id: 'sys',
          parent: 'root',
          children: ['u'],
          message: message('sys', 'system', '', null, true),
        },
        u: {
          id: 'u',
          parent: 'sys',
          children: ['a'],
          message: message('u', 'user', 'hello there', 1_700_000_001),
        },
        a: {
          id: 'a',
          parent: 'u',
          children: [],
          message: message('a', 'assistant', 'hi back', 1_700_000_002),
        },
      },
    };
    const dir = tempDir();
    const file = join(dir, 'conversations.json');
    writeFileSync(file, JSON.stringify([conversation]));
    const data = join(dir, 'data');
    await run(process.execPath, [CLI, 'import', file, '--data-dir', data, '-q']);
    const json = await run(process.execPath, [
      CLI,
      'thread',
      'th-1',
      '--data-dir',
      data,
      '--all-branches',
      '--format',
      'json',
    ]);
    // The store keeps the hidden message; only the printed transcript leaves it out.
    const parsed = JSON.parse(json.stdout) as { messages: { hidden: boolean; content: string }[] };
    expect(parsed.messages.some((m) => m.hidden && m.content === '')).toBe(true);
    const { stdout } = await run(process.execPath, [
      CLI,
      'thread',
      'th-1',
      '--data-dir',
      data,
      '--all-branches',
    ]);
    expect(stdout).not.toMatch(/\[system/);
    expect(stdout).toMatch(/\[user, shown\][^\n]*\n\s*hello there/);
  });
});
