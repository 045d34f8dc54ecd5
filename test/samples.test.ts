import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Conversation } from '../src/model/pam.js';
import { openZip } from '../src/read/zip.js';
import { writeSamples } from '../src/sample/write-samples.js';
import { convertToTemp, tempDir } from './support/convert-to-temp.js';
import { conversationErrors, memoryStoreErrors } from './support/pam-validator.js';
import { ROOT } from './support/shared.js';

async function zipContents(path: string): Promise<Record<string, string>> {
  const { entries } = await openZip(path, 'sample');
  const result: Record<string, string> = {};
  for (const entry of entries) {
    const chunks: Buffer[] = [];
    for await (const chunk of (await entry.open()) as AsyncIterable<Buffer>) chunks.push(chunk);
    result[entry.path] = Buffer.concat(chunks).toString('base64');
  }
  return result;
}

function folderContents(dir: string): Record<string, string> {
  const result: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    result[relative(dir, path)] = readFileSync(path, 'utf8');
  }
  return result;
}

function bytesUnder(path: string): number {
  if (!statSync(path).isDirectory()) return statSync(path).size;
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + statSync(join(e.parentPath, e.name)).size, 0);
}

// Function words tell a message's language well enough for text of a few sentences.
const ENGLISH = new Set('the and to is you a of it in that for with your this are on'.split(' '));
const OTHER = new Set(
  'le la les et est vous pour une des du que der die das und ist sie nicht mit ein eine ich o os as um uma não com para você'.split(
    ' ',
  ),
);

function isEnglish(text: string): boolean {
  const words = text.toLowerCase().match(/[\p{L}']+/gu) ?? [];
  const english = words.filter((w) => ENGLISH.has(w)).length;
  return english > words.filter((w) => OTHER.has(w)).length;
}

function spoken(conversations: Conversation[]): string[] {
  return conversations.flatMap((c) =>
    c.messages
      .filter((m) => (m.role === 'user' || m.role === 'assistant') && !m.is_thought)
      .filter((m) => m.tool_calls.length === 0 && (m.content?.text ?? '').trim() !== '')
      .map((m) => m.content?.text ?? ''),
  );
}

describe('the bundled samples', () => {
  const samples = ['chatgpt-export.zip', 'claude-export.zip', 'claude-code'].map((name) =>
    join(ROOT, 'samples', name),
  );

  it('are what `chatgraph sample` writes, byte for byte, and stay small', async () => {
    const fresh = await writeSamples(tempDir());
    expect(fresh.map((path) => relative(join(fresh[0] ?? '', '..'), path))).toEqual([
      'chatgpt-export.zip',
      'claude-export.zip',
      'claude-code',
    ]);
    for (const [i, path] of samples.slice(0, 2).entries())
      expect(await zipContents(path)).toEqual(await zipContents(fresh[i] ?? ''));
    expect(folderContents(samples[2] ?? '')).toEqual(folderContents(fresh[2] ?? ''));
    const again = await writeSamples(tempDir());
    for (const [i, path] of fresh.slice(0, 2).entries())
      expect(readFileSync(path)).toEqual(readFileSync(again[i] ?? ''));
    expect(samples.reduce((sum, path) => sum + bytesUnder(path), 0)).toBeLessThan(200_000);
  });

  it('convert into a valid bundle with branches, tool calls, thinking, citations, attachments and memories', async () => {
    const { conversations, store, report, dir } = await convertToTemp(samples);
    for (const conversation of conversations) expect(conversationErrors(conversation)).toEqual([]);
    expect(memoryStoreErrors(store)).toEqual([]);
    expect(report.totals).toMatchObject({ conversations: 48, skipped: 0 });
    const bySource = (name: string): Conversation[] =>
      conversations.filter((c) => c.provider.name === name);
    expect(bySource('chatgpt')).toHaveLength(25);
    expect(bySource('claude')).toHaveLength(18);
    expect(bySource('claude-code')).toHaveLength(5);
    // An edited question and regenerated answers in ChatGPT, a retried answer in Claude.ai, and
    // two Claude.ai conversations whose first message was edited (a second root each).
    expect(report.totals.branches).toBe(6);
    expect(report.totals.toolCalls).toBe(25);
    const messages = conversations.flatMap((c) => c.messages);
    expect(messages.filter((m) => m.is_thought).length).toBeGreaterThanOrEqual(6);
    expect(messages.filter((m) => m.citations.length > 0).length).toBeGreaterThanOrEqual(3);
    // The ChatGPT code-interpreter cells, with what they printed.
    const python = messages.flatMap((m) => m.tool_calls).filter((t) => t.name === 'python');
    expect(python.map((t) => t.output?.split('\n')[0]).sort()).toEqual([
      'category',
      'payment 1049.54',
    ]);
    // The two photos and the bank CSV are copied; the Claude.ai pasted texts are written.
    expect(report.totals.attachmentsCopied).toBe(3);
    const pasted = messages.flatMap((m) =>
      m.attachments.filter((a) => a.ref?.startsWith('attachments/text/')),
    );
    expect(pasted.map((a) => a.name).sort()).toEqual(['blood-results.txt', 'chapter-01.md']);
    expect(report.totals.attachmentTexts).toBe(pasted.length);
    for (const a of pasted) expect(statSync(join(dir, a.ref ?? '')).size).toBe(a.size_bytes);
    // Claude's memory, the novel's project memory, the project and its two documents.
    expect(report.totals.memories).toBe(5);
    expect(store.owner.id).toBe('user-sample0account');
    expect(report.problems).toEqual([]);
  });

  it('are more than three quarters English, with French, German and Portuguese too', async () => {
    const { conversations } = await convertToTemp(samples);
    const texts = spoken(conversations);
    const english = texts.filter(isEnglish).length;
    expect(english / texts.length).toBeGreaterThan(0.75);
    const titles = conversations.map((c) => c.title);
    for (const title of [
      'Lettre de résiliation de bail',
      'Nebenkostenabrechnung prüfen',
      'Receita de bacalhau à Brás',
    ])
      expect(titles).toContain(title);
  });

  it('span about eighteen months of 2025 and 2026', async () => {
    const { conversations } = await convertToTemp(samples);
    const starts = conversations.map((c) => c.temporal.created_at).sort();
    expect(starts[0]?.slice(0, 7)).toBe('2025-01');
    expect(starts.at(-1)?.slice(0, 7)).toBe('2026-06');
  });
});
