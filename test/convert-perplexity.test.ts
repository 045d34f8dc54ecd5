// Perplexity, the ninth source: both thread-file shapes import, are searchable, and make
// bundles the official PAM validator accepts.
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { convertToTemp, tempDir } from './support/convert-to-temp.js';
import { pamValidate } from './support/pam-sdk.js';
import { ROOT } from './support/shared.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const run = promisify(execFile);
const answer = z.object({
  conversations: z.array(z.object({ title: z.string().nullable(), source: z.string() })),
});

describe('a folder of Perplexity thread files', () => {
  it('imports both shapes, finds them by words, and passes the official validator', async () => {
    const data = join(tempDir(), 'data');
    await run(process.execPath, [
      CLI,
      'import',
      join(ROOT, 'test', 'fixtures', 'perplexity'),
      '--data-dir',
      data,
      '-q',
    ]);
    const search = async (words: string) =>
      answer.parse(
        JSON.parse(
          (
            await run(process.execPath, [
              CLI,
              'search',
              words,
              '--mode',
              'keyword',
              '--data-dir',
              data,
              '--format',
              'json',
            ])
          ).stdout,
        ),
      ).conversations;
    expect(await search('acetone')).toEqual(
      [
        {
          title:
            'My sourdough starter smells like nail polish remover after a week in the fridge. What does that…',
          source: 'perplexity',
        },
      ].map((c) => expect.objectContaining(c) as unknown),
    );
    expect((await search('bungalow')).map((c) => c.title)).toEqual([
      'Heat pump for a 1970s bungalow',
    ]);
    const { status, output } = pamValidate(join(data, 'bundle', 'memory-store.json'));
    expect(output).not.toMatch(/error/i);
    expect(status).toBe(0);
  });
});

describe("Perplexity's official account export (issue 42, point 9)", () => {
  const OFFICIAL = join(ROOT, 'test', 'fixtures', 'perplexity', 'official-2026');
  const ZIP = join(OFFICIAL, 'user_data_export_2026-09-14_4c1a9e.zip');

  it('reads every conversation of the zip: titles from the first question, one line, cut at a word', async () => {
    const { conversations, report } = await convertToTemp([ZIP]);
    expect(report.totals.conversations).toBe(3);
    const titles = conversations.map((c) => c.title);
    expect(titles).toContain(
      'I am writing a short talk for my neighbourhood association about replacing the lawn in the shared…',
    );
    for (const title of titles) {
      expect(title?.length).toBeLessThanOrEqual(100);
      expect(title).not.toMatch(/\n/);
    }
    const meadow = conversations.find((c) => c.title?.startsWith('I am writing'));
    // [n] markers stay as written (the export has no sources); the newest time wins.
    expect(meadow?.messages[1]?.content?.text).toContain('sown first, to weaken the grass [1]');
    expect(meadow?.temporal.updated_at).toBe('2026-08-20T07:21:42.900000Z');
    expect(meadow?.raw_metadata.platform_url).toBe(
      'https://www.perplexity.ai/search/b1c2d3e4-5f60-4718-9a2b-3c4d5e6f7a81',
    );
  });

  it('merges a thread read from a thread exporter and from the official export, without duplicates', async () => {
    const thread = join(OFFICIAL, 'perplexity_basil_indoors.json');
    for (const inputs of [
      [ZIP, thread],
      [thread, ZIP],
    ]) {
      const { conversations } = await convertToTemp(inputs);
      const basil = conversations.filter((c) => c.title?.includes('basil'));
      expect(basil).toHaveLength(1);
      const messages = basil[0]?.messages ?? [];
      expect(messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
      // The exporter's sources stay on the answers the official export gives without them.
      expect(messages[1]?.citations.map((c) => c.url)).toContain(
        'https://garden.example.org/basil-indoors',
      );
    }
  });

  it('is listed by `chatgraph sources` with how to request it', async () => {
    const { stdout } = await run(process.execPath, [CLI, 'sources']);
    // Each source's words wrap to 80 columns under its name: its entry runs to the next name.
    const entry = /^perplexity .*(?:\n {2,}.*)*/m.exec(stdout)?.[0];
    expect(entry).toContain('perplexity.typeform.com/datarequest');
    expect(entry).toContain('user_data_export_');
  });
});

describe('a bundle written before turns were known by their question', () => {
  it('takes the thread in again without doubling its messages', async () => {
    const thread = join(ROOT, 'test', 'fixtures', 'perplexity', 'heat-pump-thread.json');
    const { dir, conversations } = await convertToTemp([thread]);
    const [conversation] = conversations;
    if (!conversation) throw new Error('no conversation');
    // The same file as an earlier version wrote it: every message id another one.
    const path = join(dir, 'conversations', `${conversation.id}.json`);
    let text = readFileSync(path, 'utf8');
    for (const [n, message] of conversation.messages.entries())
      text = text.replaceAll(message.id, `00000000-0000-5000-8000-${String(n).padStart(12, '0')}`);
    writeFileSync(path, text);
    const again = await convertToTemp([thread], dir);
    expect(again.conversations[0]?.messages).toHaveLength(conversation.messages.length);
    expect(again.conversations[0]?.messages.map((m) => m.id)).toEqual(
      conversation.messages.map((m) => m.id),
    );
  });
});
