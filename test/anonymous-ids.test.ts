import { InlineTexts } from '../src/bundle/inline-text.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../src/model/diagnostic.js';
import type { Conversation } from '../src/model/pam.js';
import { leChat } from '../src/providers/le-chat/index.js';
import { convertToTemp, tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';

type Json = Record<string, unknown>;

/** Converts records written in the given order; returns the platform ids and warnings. */
async function idsOf(
  name: string,
  wrap: (records: Json[]) => unknown,
  records: Json[],
): Promise<{ ids: string[]; warnings: number }> {
  const path = join(tempDir(), name);
  writeFileSync(path, JSON.stringify(wrap(records)));
  const { conversations, report } = await convertToTemp([path]);
  return {
    ids: conversations.map((c) => c.provider.conversation_id ?? '').sort(),
    warnings: report.problems.find((p) => p.code === 'missing-conversation-id')?.count ?? 0,
  };
}

describe('records without an id get a stable content-based id, with a warning', () => {
  it('DeepSeek and Grok: the same ids whatever the export order', async () => {
    const deepseek = (
      JSON.parse(
        readFileSync(join(ROOT, 'test/fixtures/deepseek/conversations.json'), 'utf8'),
      ) as Json[]
    ).flatMap(({ id: _id, ...rest }) => [rest, { ...rest, title: 'another one' }]);
    const grokFile = JSON.parse(
      readFileSync(join(ROOT, 'test/fixtures/grok/prod-grok-backend.json'), 'utf8'),
    ) as { conversations: { conversation: Json; responses: unknown }[] };
    const grok = grokFile.conversations.flatMap(({ conversation, responses }) => {
      const { id: _id, ...rest } = conversation;
      return [
        { conversation: rest, responses },
        { conversation: { ...rest, title: 'another one' }, responses },
      ];
    });
    for (const [name, wrap, records] of [
      ['conversations.json', (r: Json[]) => r, deepseek],
      ['prod-grok-backend.json', (r: Json[]) => ({ conversations: r }), grok],
    ] as const) {
      expect(records.length).toBeGreaterThan(1);
      const forward = await idsOf(name, wrap, records);
      const backward = await idsOf(name, wrap, [...records].reverse());
      expect(forward.ids).toEqual(backward.ids);
      expect(forward.ids.every((id) => /^anonymous-[0-9a-f-]{36}$/.test(id))).toBe(true);
      expect(forward.warnings).toBe(records.length);
    }
  });

  it('Le Chat: a message list with no chat id and no id in its name', () => {
    const messages = (
      JSON.parse(
        readFileSync(
          join(ROOT, 'test/fixtures/le-chat/chat-3f2a9c1e-0000-4000-8000-00000000c4a7.json'),
          'utf8',
        ),
      ) as Json[]
    ).map(({ chatId: _chatId, ...rest }) => rest);
    const convert = (
      record: string,
    ): { id: string | null; warnings: Omit<Diagnostic, 'file'>[] } => {
      const warnings: Omit<Diagnostic, 'file'>[] = [];
      const conversation = leChat.toConversation(messages, 'chat-json', {
        record,
        file: 'export/renamed.json',
        fallbackTime: undefined,
        report: (d) => warnings.push(d),
        resolveAsset: () => undefined,
        attachText: new InlineTexts().attach,
      }) as Conversation;
      return { id: conversation.provider.conversation_id, warnings };
    };
    const first = convert('#0');
    expect(first.id).toBe(convert('#7').id);
    expect(first.id).toMatch(/^anonymous-[0-9a-f-]{36}$/);
    expect(first.warnings.map((w) => w.code)).toContain('missing-conversation-id');
  });
});
