import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { shownThread } from '../src/model/build-conversation.js';
import { ZipWriter } from '../src/sample/zip-writer.js';
import { branchedConversation, msg, node } from './support/chatgpt-builder.js';
import { convertToTemp, tempDir } from './support/convert-to-temp.js';
import { conversationErrors, memoryStoreErrors } from './support/pam-validator.js';

function write(dir: string, name: string, value: unknown): string {
  const path = join(dir, name);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(
    path,
    typeof value === 'string' || Buffer.isBuffer(value) ? value : JSON.stringify(value),
  );
  return path;
}

describe('ChatGPT import', () => {
  it('keeps every branch and marks the thread that ends at current_node', async () => {
    const dir = tempDir();
    const { conversations } = await convertToTemp([
      write(dir, 'conversations.json', [branchedConversation()]),
    ]);
    const [conversation] = conversations;
    expect(conversation?.messages.map((m) => m.content?.text)).toEqual([
      'hello',
      'first answer',
      'second answer',
    ]);
    expect(shownThread(conversation!).map((m) => m.content?.text)).toEqual([
      'hello',
      'second answer',
    ]);
    expect(conversation?.messages[0]?.children_ids).toHaveLength(2);
    expect(conversation?.provider.export_format_version).toBe('chatgpt/array');
  });

  it('follows parent links when children links are missing (2026 quirk)', async () => {
    const conversation = branchedConversation();
    for (const value of Object.values(
      conversation.mapping as Record<string, Record<string, unknown>>,
    ))
      value.children = [];
    const dir = tempDir();
    const { conversations } = await convertToTemp([
      write(dir, 'conversations.json', [conversation]),
    ]);
    expect(shownThread(conversations[0]!).map((m) => m.content?.text)).toEqual([
      'hello',
      'second answer',
    ]);
    expect(conversations[0]?.messages[0]?.children_ids).toHaveLength(2);
    expect(conversations[0]?.provider.export_format_version).toBe(
      'chatgpt/array+parent-links-only',
    );
  });

  it('reads split files, a wrapped array and a single object alike', async () => {
    const dir = tempDir();
    write(dir, 'export/conversations-000.json', [branchedConversation('c1')]);
    write(dir, 'export/conversations-001.json', [branchedConversation('c2')]);
    const wrapped = write(dir, 'wrapped.json', { conversations: [branchedConversation('c3')] });
    const single = write(dir, 'single.json', branchedConversation('c4'));
    const { conversations, report } = await convertToTemp([join(dir, 'export'), wrapped, single]);
    expect(conversations.map((c) => c.provider.conversation_id).sort()).toEqual([
      'c1',
      'c2',
      'c3',
      'c4',
    ]);
    expect(report.files.map((f) => f.variant)).toEqual([
      'split-files',
      'split-files',
      'wrapped',
      'single-object',
    ]);
  });

  it('writes a conversation found in two files once', async () => {
    const dir = tempDir();
    const a = write(dir, 'a/conversations.json', [branchedConversation('same')]);
    const b = write(dir, 'b/conversations.json', [
      branchedConversation('same'),
      branchedConversation('other'),
    ]);
    const { conversations, report } = await convertToTemp([a, b]);
    expect(conversations).toHaveLength(2);
    expect(report.written.duplicates).toBe(1);
    expect(report.totals.conversations).toBe(2);
  });

  it('maps tool calls, tool results, thoughts, custom instructions and hidden messages', async () => {
    const conversation = {
      id: 'tools',
      title: null,
      create_time: 1_700_000_000,
      current_node: 'final',
      mapping: {
        root: node('root', null, ['sys'], null),
        sys: node(
          'sys',
          'root',
          ['ctx'],
          msg('sys', 'system', '', null, {
            metadata: { is_visually_hidden_from_conversation: true },
          }),
        ),
        ctx: node(
          'ctx',
          'sys',
          ['u'],
          msg('ctx', 'user', '', 1_700_000_000, {
            content: {
              content_type: 'user_editable_context',
              user_profile: 'I bake.',
              user_instructions: 'Be brief.',
            },
            metadata: { is_visually_hidden_from_conversation: true, is_user_system_message: true },
          }),
        ),
        u: node('u', 'ctx', ['t'], msg('u', 'user', 'compute', 1_700_000_001)),
        t: node(
          't',
          'u',
          ['call'],
          msg('t', 'assistant', '', 1_700_000_002, {
            content: {
              content_type: 'thoughts',
              thoughts: [{ summary: 'Plan', content: 'Use python.' }],
            },
          }),
        ),
        call: node(
          'call',
          't',
          ['out'],
          msg('call', 'assistant', '', 1_700_000_003, {
            recipient: 'python',
            content: { content_type: 'code', language: 'python', text: 'print(2+2)' },
          }),
        ),
        out: node(
          'out',
          'call',
          ['final'],
          msg('out', 'tool', '', 1_700_000_004, {
            authorName: 'python',
            content: { content_type: 'execution_output', text: '4' },
          }),
        ),
        final: node(
          'final',
          'out',
          [],
          msg('final', 'assistant', 'It is 4.', 1_700_000_005, {
            metadata: {
              citations: [
                { metadata: { title: 'Math', url: 'https://example.org/m', text: 'two and two' } },
                { metadata: { title: 'Bad', url: 'not a url' } },
              ],
            },
          }),
        ),
      },
    };
    const dir = tempDir();
    const { conversations } = await convertToTemp([
      write(dir, 'conversations.json', [conversation]),
    ]);
    const c = conversations[0]!;
    expect(conversationErrors(c)).toEqual([]);
    expect(c.title).toBeNull();
    expect(c.system_instruction).toBe('Custom instructions:\nBe brief.\n\nUser profile:\nI bake.');
    const byProvider = new Map(c.messages.map((m) => [m.provider_message_id, m]));
    expect(byProvider.get('sys')?.raw_metadata.hidden).toBe(true);
    expect(byProvider.get('sys')?.raw_metadata.timestamp_inferred).toBe(true);
    expect(byProvider.get('t')?.is_thought).toBe(true);
    expect(byProvider.get('t')?.content?.text).toBe('Plan\nUse python.');
    expect(byProvider.get('call')?.tool_calls).toEqual([
      { id: 'call', name: 'python', input: 'print(2+2)', output: '4' },
    ]);
    expect(byProvider.get('out')?.role).toBe('tool');
    expect(byProvider.get('out')?.raw_metadata.tool_call_id).toBe('call');
    expect(byProvider.get('final')?.is_thought).toBe(false);
    expect(byProvider.get('final')?.citations).toEqual([
      { title: 'Math', url: 'https://example.org/m', snippet: 'two and two' },
      { title: 'Bad', url: null, snippet: null },
    ]);
  });

  it('copies image assets found in the export into attachments/, through the .dat name map', async () => {
    const path = join(tempDir(), 'export.zip');
    const zip = new ZipWriter(path);
    const conversation = {
      id: 'img',
      title: 'Pictures',
      create_time: 1_700_000_000,
      current_node: 'u',
      mapping: {
        u: node(
          'u',
          null,
          [],
          msg('u', 'user', '', 1_700_000_001, {
            content: {
              content_type: 'multimodal_text',
              parts: [
                {
                  content_type: 'image_asset_pointer',
                  asset_pointer: 'sediment://file_00aa',
                  size_bytes: 3,
                },
                {
                  content_type: 'image_asset_pointer',
                  asset_pointer: 'file-service://file-Missing1',
                },
                'what is this?',
              ],
            },
            metadata: {
              attachments: [
                { id: 'file-Upload1', name: 'notes.txt', mime_type: 'text/plain', size: 5 },
              ],
            },
          }),
        ),
      },
    };
    await zip.add('conversations.json', JSON.stringify([conversation]));
    await zip.add('file_00aa.dat', Buffer.from('png'));
    await zip.add('file-Upload1-notes.txt', 'notes');
    await zip.add(
      'conversation_asset_file_names.json',
      JSON.stringify({ 'file_00aa.dat': 'dalle-generations/sunset.webp' }),
    );
    await zip.close();
    const { conversations, dir, report } = await convertToTemp([path]);
    const message = conversations[0]!.messages[0]!;
    expect(message.content).toMatchObject({ type: 'multipart', text: 'what is this?' });
    expect(message.attachments.map((a) => [a.type, a.ref, a.provider_id])).toEqual([
      ['image', 'attachments/file_00aa-sunset.webp', 'sediment://file_00aa'],
      ['image', null, 'file-service://file-Missing1'],
      ['file', 'attachments/file-Upload1-notes.txt', 'file-Upload1'],
    ]);
    expect(readFileSync(join(dir, 'attachments/file_00aa-sunset.webp'), 'utf8')).toBe('png');
    expect(readFileSync(join(dir, 'attachments/file-Upload1-notes.txt'), 'utf8')).toBe('notes');
    expect(report.totals).toMatchObject({
      attachments: 3,
      attachmentsCopied: 2,
      attachmentsMissing: 1,
    });
  });

  it('takes the owner id from user.json', async () => {
    const dir = tempDir();
    write(dir, 'x/conversations.json', [branchedConversation()]);
    write(dir, 'x/user.json', { id: 'user-abc', email: 'a@b.c' });
    const { store } = await convertToTemp([join(dir, 'x')]);
    expect(store.owner.id).toBe('user-abc');
    expect(memoryStoreErrors(store)).toEqual([]);
  });

  it('converts every complete conversation before a cut and names the file and byte offset', async () => {
    const dir = tempDir();
    const whole = JSON.stringify([
      branchedConversation('c1'),
      branchedConversation('c2'),
      branchedConversation('c3'),
    ]);
    const cut = whole.slice(0, whole.indexOf('"c3"') + 10);
    const { conversations, report } = await convertToTemp([write(dir, 'conversations.json', cut)]);
    expect(conversations.map((c) => c.provider.conversation_id)).toEqual(
      expect.arrayContaining(['c1', 'c2']),
    );
    expect(conversations).toHaveLength(2);
    const problem = report.problems.find((p) => p.code === 'truncated-file');
    expect(problem?.examples[0]).toMatchObject({
      file: 'conversations.json',
      offset: whole.indexOf('{"id":"c3"'),
    });
  });

  it('skips a malformed conversation with its index and id, and goes on', async () => {
    const dir = tempDir();
    const bad = { id: 'broken', title: 'no mapping here' };
    const { conversations, report } = await convertToTemp([
      write(dir, 'conversations.json', [
        branchedConversation('c1'),
        bad,
        42,
        branchedConversation('c2'),
      ]),
    ]);
    expect(conversations).toHaveLength(2);
    const problem = report.problems.find((p) => p.code === 'not-a-conversation');
    expect(problem?.count).toBe(2);
    expect(problem?.examples[0]?.record).toBe('#1 (broken)');
    expect(report.totals.skipped).toBe(2);
  });

  it('survives invalid UTF-8 and lone surrogates', async () => {
    const dir = tempDir();
    const text = JSON.stringify([branchedConversation('c1')]).replace('hello', 'he\\ud800llo');
    const bytes = Buffer.from(text.replace('first answer', 'first XX answer'));
    const at = bytes.indexOf('XX');
    bytes[at] = 0xff;
    bytes[at + 1] = 0xfe;
    const { conversations, report } = await convertToTemp([
      write(dir, 'conversations.json', bytes),
    ]);
    expect(conversations).toHaveLength(1);
    expect(conversationErrors(conversations[0])).toEqual([]);
    expect(report.problems.map((p) => p.code)).toContain('invalid-utf8');
  });

  it('masks secrets before anything is written with redact, and counts them', async () => {
    const dir = tempDir();
    const conversation = branchedConversation('secret');
    const mapping = conversation.mapping as Record<string, { message: Record<string, unknown> }>;
    mapping.u!.message.content = {
      content_type: 'text',
      parts: ['my key is sk-proj-abcdefghijklmnopqrstuvwxyz0123'],
    };
    const input = write(dir, 'conversations.json', [conversation]);
    const out = tempDir();
    const { convertExports } = await import('../src/pipeline/convert-exports.js');
    const report = await convertExports([input], { out, redact: true });
    expect(report.redactions).toEqual({ 'openai-key': 1 });
    const { readdirSync } = await import('node:fs');
    const files = readdirSync(join(out, 'conversations'));
    const text = readFileSync(join(out, 'conversations', files[0]!), 'utf8');
    expect(text).not.toContain('sk-proj-abc');
    expect(text).toContain('[REDACTED:openai-key]');
  });

  it('writes the same files when converting the same export twice', async () => {
    const dir = tempDir();
    const input = write(dir, 'conversations.json', [
      branchedConversation('c1'),
      branchedConversation('c2'),
    ]);
    const first = await convertToTemp([input]);
    const second = await convertToTemp([input]);
    expect(second.conversations).toEqual(first.conversations);
    expect(second.store).toEqual(first.store);
    const again = await convertToTemp([input], first.dir);
    expect(again.report.written).toMatchObject({ created: 0, updated: 0, unchanged: 2 });
    expect(existsSync(join(first.dir, 'memory-store.json'))).toBe(true);
  });
});
