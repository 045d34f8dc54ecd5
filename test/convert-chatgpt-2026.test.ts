// The 2026 ChatGPT shapes end to end: inline citation markers, canvas documents and deep-research
// reports, imported into a data folder, searched, and checked by the official PAM validator.
import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempDir } from './support/convert-to-temp.js';
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
      join(FIXTURES, 'deep-research-2026.json'),
      '--data-dir',
      data,
      '-q',
    ]);
  });

  it('leaves no marker character in any message text, and attaches each cited URL to its message', () => {
    const folder = join(data, 'bundle', 'conversations');
    const files = readdirSync(folder).filter((name) => name.endsWith('.json'));
    expect(files).toHaveLength(4);
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
