import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertToTemp, tempDir } from './support/convert-to-temp.js';

// The same assistant turn in both Anthropic formats: a redacted thinking block, an inline image
// and a text. Claude.ai's reader once left redacted_thinking unmapped (Claude Code's did not).
const BLOCKS = [
  { type: 'redacted_thinking', data: 'EncryptedBytes==' },
  { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
  { type: 'text', text: 'Here is the answer.' },
];

function claudeAiExport(dir: string): string {
  const path = join(dir, 'conversations.json');
  writeFileSync(
    path,
    JSON.stringify([
      {
        uuid: 'c-1',
        name: 'Blocks',
        created_at: '2025-01-01T10:00:00Z',
        updated_at: '2025-01-01T10:01:00Z',
        chat_messages: [
          {
            uuid: 'q',
            sender: 'human',
            created_at: '2025-01-01T10:00:00Z',
            content: [{ type: 'text', text: 'A question' }],
          },
          { uuid: 'a', sender: 'assistant', created_at: '2025-01-01T10:01:00Z', content: BLOCKS },
        ],
      },
    ]),
  );
  return path;
}

function claudeCodeSession(dir: string): string {
  const folder = join(dir, 'projects', '-home-me-app');
  mkdirSync(folder, { recursive: true });
  const common = { sessionId: 's-1', cwd: '/home/me/app', version: '1.0.0' };
  const lines = [
    {
      ...common,
      type: 'user',
      uuid: 'q',
      parentUuid: null,
      timestamp: '2025-01-01T10:00:00Z',
      message: { role: 'user', content: 'A question' },
    },
    {
      ...common,
      type: 'assistant',
      uuid: 'a',
      parentUuid: 'q',
      timestamp: '2025-01-01T10:01:00Z',
      message: { id: 'msg_1', role: 'assistant', model: 'claude-x', content: BLOCKS },
    },
  ];
  writeFileSync(join(folder, 's-1.jsonl'), lines.map((l) => JSON.stringify(l)).join('\n'));
  return join(dir, 'projects');
}

describe('Anthropic content blocks, read once for both Claude formats', () => {
  it.each([
    ['Claude.ai', claudeAiExport],
    ['Claude Code', claudeCodeSession],
  ])('%s: redacted thinking is a thought, an inline image an attachment', async (_, write) => {
    const { conversations, report } = await convertToTemp([write(tempDir())]);
    expect(report.problems.map((p) => p.code)).not.toContain('unknown-block-type');
    const messages = conversations[0]?.messages ?? [];
    const thought = messages.find((m) => m.is_thought);
    expect(thought?.raw_metadata).toMatchObject({
      block: 'redacted_thinking',
      data: 'EncryptedBytes==',
    });
    const answer = messages.find((m) => m.content?.text === 'Here is the answer.');
    expect(answer?.attachments.map((a) => [a.type, a.mime_type])).toEqual([['image', 'image/png']]);
    expect(answer?.raw_metadata.unknown_blocks).toBeUndefined();
  });
});
