import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shownThread } from '../src/model/build-conversation.js';
import { ZipWriter } from '../src/sample/zip-writer.js';
import { convertToTemp, tempDir } from './support/convert-to-temp.js';
import { conversationErrors, memoryStoreErrors } from './support/pam-validator.js';

const ROOT = '00000000-0000-4000-8000-000000000000';

function write(dir: string, name: string, value: unknown): string {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, typeof value === 'string' ? value : JSON.stringify(value));
  return path;
}

function message(
  uuid: string,
  sender: string,
  content: unknown[],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    uuid,
    sender,
    text: '',
    content,
    created_at: extra.created_at ?? '2025-05-01T10:00:00.000000Z',
    attachments: [],
    files: [],
    ...extra,
  };
}

function conversation(
  uuid: string,
  messages: unknown[],
  extra: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    uuid,
    name: 'Chat',
    created_at: '2025-05-01T10:00:00Z',
    updated_at: '2025-05-01T11:00:00Z',
    account: { uuid: 'acc-1' },
    chat_messages: messages,
    ...extra,
  };
}

describe('Claude.ai import', () => {
  it('makes each thinking block its own thought message just before the reply', async () => {
    const dir = tempDir();
    const input = write(dir, 'conversations.json', [
      conversation('c1', [
        message('m1', 'human', [{ type: 'text', text: 'why?' }]),
        message(
          'm2',
          'assistant',
          [
            {
              type: 'thinking',
              thinking: 'first thought',
              summaries: [{ summary: 's' }],
              cut_off: false,
            },
            { type: 'thinking', thinking: 'second thought' },
            { type: 'text', text: 'Because.' },
          ],
          { text: 'first thoughtsecond thoughtBecause.' },
        ),
      ]),
    ]);
    const { conversations } = await convertToTemp([input]);
    const thread = shownThread(conversations[0]!);
    expect(thread.map((m) => [m.role, m.is_thought, m.content?.text])).toEqual([
      ['user', false, 'why?'],
      ['assistant', true, 'first thought'],
      ['assistant', true, 'second thought'],
      ['assistant', false, 'Because.'],
    ]);
    expect(thread[1]?.raw_metadata).toMatchObject({
      summaries: [{ summary: 's' }],
      thought_of: 'm2',
    });
  });

  it('pairs parallel tool calls with their results by id, JSON text when a result is not text', async () => {
    const dir = tempDir();
    const input = write(dir, 'conversations.json', [
      conversation('c1', [
        message('m1', 'human', [{ type: 'text', text: 'look up two things' }]),
        message('m2', 'assistant', [
          { type: 'tool_use', id: 'a', name: 'web_search', input: { query: 'x' } },
          { type: 'tool_use', id: 'b', name: 'web_fetch', input: { url: 'https://e.org' } },
          { type: 'tool_result', tool_use_id: 'b', content: [{ type: 'text', text: 'page b' }] },
          {
            type: 'tool_result',
            tool_use_id: 'a',
            content: [{ type: 'knowledge', title: 'K', url: 'https://k.org', text: 'found' }],
          },
          { type: 'tool_result', tool_use_id: 'zzz', content: [{ type: 'text', text: 'orphan' }] },
          { type: 'text', text: 'Done.' },
        ]),
      ]),
    ]);
    const { conversations, report } = await convertToTemp([input]);
    const reply = conversations[0]!.messages.find((m) => m.provider_message_id === 'm2')!;
    expect(reply.tool_calls).toEqual([
      {
        id: 'a',
        name: 'web_search',
        input: { query: 'x' },
        output: '{"type":"knowledge","title":"K","url":"https://k.org","text":"found"}',
      },
      { id: 'b', name: 'web_fetch', input: { url: 'https://e.org' }, output: 'page b' },
    ]);
    expect(reply.citations).toEqual([{ title: 'K', url: 'https://k.org', snippet: 'found' }]);
    expect(reply.content?.text).toBe('Done.');
    expect(report.problems.map((p) => p.code)).toContain('orphan-tool-result');
  });

  it('rebuilds branches from parent_message_uuid and shows the current leaf', async () => {
    const dir = tempDir();
    const input = write(
      dir,
      'c.jsonl',
      [
        JSON.stringify(
          conversation(
            'c1',
            [
              message('m1', 'human', [{ type: 'text', text: 'q' }], { parent_message_uuid: ROOT }),
              message('m3', 'assistant', [{ type: 'text', text: 'retry' }], {
                parent_message_uuid: 'm1',
                created_at: '2025-05-01T10:02:00Z',
              }),
              message('m2', 'assistant', [{ type: 'text', text: 'first' }], {
                parent_message_uuid: 'm1',
                created_at: '2025-05-01T10:01:00Z',
              }),
            ],
            { current_leaf_message_uuid: 'm2' },
          ),
        ),
        JSON.stringify(conversation('c2', [message('x', 'human', [{ type: 'text', text: 'hi' }])])),
      ].join('\n'),
    );
    const { conversations, report } = await convertToTemp([input]);
    expect(report.files[0]?.variant).toBe('jsonl');
    const c1 = conversations.find((c) => c.provider.conversation_id === 'c1')!;
    expect(conversationErrors(c1)).toEqual([]);
    expect(c1.messages[0]?.children_ids).toHaveLength(2);
    expect(shownThread(c1).map((m) => m.content?.text)).toEqual(['q', 'first']);
    expect(c1.provider.export_format_version).toBe('claude/jsonl/content-blocks+branches');
  });

  it('reads the 2024 format (no content[]) and keeps attachments and files', async () => {
    const dir = tempDir();
    const input = write(dir, 'conversations.json', [
      conversation(
        'c1',
        [
          {
            uuid: 'm1',
            sender: 'human',
            text: 'see file',
            created_at: '2024-10-01T10:00:00Z',
            attachments: [
              { file_name: 'a.txt', file_size: 3, file_type: 'txt', extracted_content: 'abc' },
            ],
            files: [{ file_name: 'shot.png' }],
          },
          {
            uuid: 'm2',
            sender: 'assistant',
            text: 'ok',
            created_at: '2024-10-01T10:00:01Z',
            attachments: [],
            files: [],
          },
        ],
        { name: '' },
      ),
    ]);
    const { conversations } = await convertToTemp([input]);
    const c = conversations[0]!;
    expect(c.title).toBeNull();
    expect(c.provider.export_format_version).toBe('claude/array/2024-text-only');
    expect(c.messages[0]?.attachments.map((a) => [a.type, a.name])).toEqual([
      ['document', 'a.txt'],
      ['image', 'shot.png'],
    ]);
    // The pasted text is a file of the bundle, not a second copy in raw_metadata.
    const ref = `attachments/text/${c.id}/1-a.txt`;
    expect(c.messages[0]?.attachments[0]).toMatchObject({ ref, size_bytes: 3 });
    expect(c.messages[0]?.raw_metadata.attachment_details).toEqual([
      { file_name: 'a.txt', file_size: 3, file_type: 'txt', text_ref: ref },
    ]);
  });

  it('reads the 2026 set of zips: memories as an object, one JSON per project, users.json', async () => {
    const dir = tempDir();
    const set = join(dir, 'claude-2026');
    mkdirSync(set);
    const conversations = new ZipWriter(join(set, 'conversations-000.zip'));
    await conversations.add(
      'conversations.json',
      JSON.stringify([
        conversation('c1', [message('m1', 'human', [{ type: 'text', text: 'hi' }])]),
      ]),
    );
    await conversations.close();
    const projects = new ZipWriter(join(set, 'projects-000.zip'));
    await projects.add(
      'p1.json',
      JSON.stringify({
        uuid: 'p1',
        name: 'Garden',
        description: 'Veg beds',
        prompt_template: '',
        docs: [{ uuid: 'd1', filename: 'plan.md', content: 'Tomatoes' }],
      }),
    );
    await projects.close();
    write(set, 'memories.json', {
      conversations_memory: 'Likes tomatoes.',
      project_memories: { p1: 'Raised beds.' },
      account_uuid: 'acc-1',
    });
    write(set, 'users.json', [{ uuid: 'acc-1', full_name: 'A', email_address: 'a@b.c' }]);
    const { store, report } = await convertToTemp([set]);
    expect(memoryStoreErrors(store)).toEqual([]);
    expect(store.owner.id).toBe('acc-1');
    expect(store.memories.map((m) => [m.type, m.content]).sort()).toEqual([
      ['context', 'Likes tomatoes.'],
      ['project', 'Project: Garden\n\nVeg beds'],
      ['project', 'Raised beds.'],
      ['project', 'Tomatoes'],
    ]);
    expect(store.integrity.total_memories).toBe(4);
    expect(report.totals.memories).toBe(4);
    expect(store.conversations_index).toHaveLength(1);
  });

  it('keeps unknown block types in raw_metadata and counts them', async () => {
    const dir = tempDir();
    const input = write(dir, 'conversations.json', [
      conversation('c1', [
        message('m1', 'human', [
          { type: 'hologram', data: 1 },
          { type: 'text', text: 'hi' },
        ]),
      ]),
    ]);
    const { conversations, report } = await convertToTemp([input]);
    expect(conversations[0]?.messages[0]?.raw_metadata.unknown_blocks).toEqual([
      { type: 'hologram', data: 1 },
    ]);
    expect(report.problems.find((p) => p.code === 'unknown-block-type')?.count).toBe(1);
  });
});
