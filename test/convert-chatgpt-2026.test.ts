// The 2026 ChatGPT shapes end to end: inline citation markers, canvas documents, deep-research
// reports and library_files.json, imported, searched, and checked by the official PAM validator.
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Attachment, Conversation } from '../src/model/pam.js';
import { convertToTemp, tempDir } from './support/convert-to-temp.js';
import { pamValidate } from './support/pam-sdk.js';
import { ROOT } from './support/shared.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const run = promisify(execFile);
const FIXTURES = join(ROOT, 'test', 'fixtures', 'chatgpt');
const MARKERS = /[\uE200-\uE204]/;

const conversationFile = z.object({
  messages: z.array(
    z.object({
      content: z.object({ text: z.string().nullable() }),
      citations: z.array(z.object({ url: z.string().nullable() })),
    }),
  ),
});
const perMessage = z.object({
  hits: z.array(z.object({ attachment: z.object({ name: z.string().nullable() }).optional() })),
});

describe('a 2026 ChatGPT export: citation markers, canvas documents, deep research', () => {
  let data: string;
  beforeAll(async () => {
    data = join(tempDir(), 'data');
    await run(process.execPath, [
      CLI,
      'import',
      join(FIXTURES, 'citations-2026.json'),
      join(FIXTURES, 'canvas-2026.json'),
      join(FIXTURES, 'canvas-rewrites-2026.json'),
      join(FIXTURES, 'deep-research-2026.json'),
      join(FIXTURES, 'writing-blocks-2026'),
      '--data-dir',
      data,
      '-q',
    ]);
  });

  it('leaves no marker character in any message text, and attaches each cited URL to its message', () => {
    const folder = join(data, 'bundle', 'conversations');
    const files = readdirSync(folder).filter((name) => name.endsWith('.json'));
    expect(files).toHaveLength(6);
    const urls: string[] = [];
    for (const name of files) {
      const conversation = conversationFile.parse(
        JSON.parse(readFileSync(join(folder, name), 'utf8')),
      );
      for (const message of conversation.messages) {
        expect(MARKERS.test(message.content.text ?? '')).toBe(false);
        urls.push(...message.citations.flatMap((c) => (c.url ? [c.url] : [])));
      }
    }
    expect(urls).toEqual(
      expect.arrayContaining([
        'https://www.example-guide.fr/paris/comptoir?lang=en',
        'https://example-prices.com/paris-2026',
        'https://museum.example.org/hours',
      ]),
    );
    expect(urls.some((url) => url.includes('utm_'))).toBe(false);
  });

  it("finds the canvas's final text as an attachment naming the document", async () => {
    // "(Hiring Lead)" is in the document only as the regenerated update made it.
    const { stdout } = await run(process.execPath, [
      CLI,
      'search',
      'Okafor Hiring Lead',
      '--mode',
      'keyword',
      '--per-message',
      '--data-dir',
      data,
      '--format',
      'json',
    ]);
    const names = perMessage.parse(JSON.parse(stdout)).hits.map((hit) => hit.attachment?.name);
    expect(names).toContain('Fernhill cover letter (version 3)');
  });

  const attachmentHits = async (query: string): Promise<(string | null | undefined)[]> => {
    const { stdout } = await run(process.execPath, [
      CLI,
      'search',
      query,
      '--mode',
      'keyword',
      '--per-message',
      '--data-dir',
      data,
      '--format',
      'json',
    ]);
    return perMessage.parse(JSON.parse(stdout)).hits.map((hit) => hit.attachment?.name);
  };

  it("finds a canvas's words in its documents, not in the raw JSON of the calls that wrote them", async () => {
    // "Miradouro" is in every version of the trip plan after the first, and in two calls' JSON.
    const names = await attachmentHits('Miradouro');
    expect(names.length).toBeGreaterThan(0);
    expect(names.every((name) => name?.startsWith('Trip plan (version '))).toBe(true);
    // The last version on the thread is the document as the person left it: once, not doubled.
    expect(names).toContain('Trip plan (version 5)');
  });

  it('makes :::writing blocks documents named by their subject, out of the message text', async () => {
    expect(await attachmentHits('engineer Friday')).toEqual(
      expect.arrayContaining(['Boiler repair at Flat 3', 'Boiler repair at Flat 3 (version 2)']),
    );
    expect(await attachmentHits('thermostat newspaper')).toContain('Evidence checklist');
    const folder = join(data, 'bundle', 'conversations');
    // A report the library made, whose message the export left out, is kept on its conversation.
    const names = readdirSync(folder).flatMap((name) =>
      z
        .object({
          messages: z.array(
            z.object({ attachments: z.array(z.object({ name: z.string().nullable() })) }),
          ),
        })
        .parse(JSON.parse(readFileSync(join(folder, name), 'utf8')))
        .messages.flatMap((m) => m.attachments.map((a) => a.name)),
    );
    expect(names).toContain('Tenant rights summary.md');
    const texts = readdirSync(folder).flatMap((name) =>
      conversationFile
        .parse(JSON.parse(readFileSync(join(folder, name), 'utf8')))
        .messages.map((m) => m.content.text ?? ''),
    );
    expect(texts.some((text) => text.includes('id="48217"'))).toBe(false);
  });

  it('keeps canvas comments beside the version they were made on, searchable', async () => {
    expect(await attachmentHits('which tool you used for the speed-up')).toContain(
      'Fernhill cover letter (comments on version 3)',
    );
  });

  it("finds a deep-research report's text as an attachment named after its task", async () => {
    // The 2025 shape: the report is the text of an async task's result message.
    expect(await attachmentHits('Kestrel flue liner')).toContain(
      'Heat pumps in 1930s solid-brick houses',
    );
    // The 2026 app: the report is only in a tool message's widget state.
    expect(await attachmentHits('Tauern corridor night train')).toContain(
      'Rail or air between Munich and Venice',
    );
  });

  it('keeps one report of the app, not each snapshot of its widget state (growing or repeated)', async () => {
    const names = await attachmentHits('Brenner emissions');
    expect(names.filter((name) => name === 'Rail or air between Munich and Venice')).toHaveLength(
      1,
    );
  });

  it('makes bundles the official PAM validator accepts', () => {
    const { status, output } = pamValidate(join(data, 'bundle', 'memory-store.json'));
    expect(output).not.toMatch(/error/i);
    expect(status).toBe(0);
  });
});

describe("a 2026 ChatGPT export's library_files.json", () => {
  const attachmentsOf = (conversation: Conversation): [string, Attachment[]][] =>
    conversation.messages.map((m) => [m.provider_message_id ?? '', m.attachments]);

  it('links each file to the message that made it, with its name, type and the export file', async () => {
    const { conversations, dir } = await convertToTemp([join(FIXTURES, 'library-2026')]);
    const [conversation] = conversations;
    if (!conversation) throw new Error('no conversation');
    const byMessage = new Map(attachmentsOf(conversation));
    // A generated document that nothing in the conversation names.
    const [report] = byMessage.get('lib-0002') ?? [];
    expect(report).toMatchObject({
      type: 'document',
      name: 'Allotment rotation 2027.md',
      mime_type: 'text/markdown',
      provider_id: 'file_00000000a11d0c5e7b2f4d6a9e8c1b3f',
    });
    expect(readFileSync(join(dir, report?.ref ?? 'missing'), 'utf8')).toContain('Lime bed 2');
    // The pasted notes were already the user message's attachment: not linked a second time.
    expect(byMessage.get('lib-0001')).toHaveLength(1);
    // A file not linked to any message is not put on one.
    const names = conversation.messages.flatMap((m) => m.attachments.map((a) => a.name));
    expect(names).not.toContain('Seed order.pdf');
  });

  it('keeps a linked file the export left out by name, and says so', async () => {
    const { conversations, report } = await convertToTemp([join(FIXTURES, 'library-2026')]);
    const image = conversations[0]?.messages.find((m) => m.provider_message_id === 'lib-0004');
    expect(image?.attachments).toEqual([
      {
        type: 'image',
        name: 'Four beds layout.png',
        mime_type: 'image/png',
        size_bytes: 48213,
        ref: null,
        provider_id: 'file_00000000c0ffee1234567890abcdef12',
      },
    ]);
    const missing = report.problems.filter((p) => p.code === 'library-file-missing');
    expect(missing.map((p) => p.count)).toEqual([1]);
    expect(missing[0]?.examples[0]?.message).toContain('Four beds layout.png');
  });

  it('links them on the worker threads of an import too, in a bundle the PAM validator accepts', async () => {
    const data = join(tempDir(), 'data');
    await run(process.execPath, [
      CLI,
      'import',
      join(FIXTURES, 'library-2026'),
      '--data-dir',
      data,
      '-q',
    ]);
    const folder = join(data, 'bundle', 'conversations');
    const [name] = readdirSync(folder).filter((file) => file.endsWith('.json'));
    const written = z
      .object({
        messages: z.array(
          z.object({ attachments: z.array(z.object({ name: z.string().nullable() })) }),
        ),
      })
      .parse(JSON.parse(readFileSync(join(folder, name ?? 'missing'), 'utf8')));
    expect(written.messages.flatMap((m) => m.attachments.map((a) => a.name))).toContain(
      'Allotment rotation 2027.md',
    );
    const { status, output } = pamValidate(join(data, 'bundle', 'memory-store.json'));
    expect(output).not.toMatch(/error/i);
    expect(status).toBe(0);
  });
});
