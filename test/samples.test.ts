import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openZip } from '../src/read/zip.js';
import { writeSamples } from '../src/sample/write-samples.js';
import { convertToTemp, tempDir } from './support/convert-to-temp.js';
import { conversationErrors, memoryStoreErrors } from './support/pam-validator.js';
import { ROOT } from './support/shared.js';

async function contents(path: string): Promise<Record<string, string>> {
  const { entries } = await openZip(path, 'sample');
  const result: Record<string, string> = {};
  for (const entry of entries) {
    const chunks: Buffer[] = [];
    for await (const chunk of (await entry.open()) as AsyncIterable<Buffer>) chunks.push(chunk);
    result[entry.path] = Buffer.concat(chunks).toString('base64');
  }
  return result;
}

describe('the bundled samples', () => {
  const samples = ['chatgpt-export.zip', 'claude-export.zip'].map((name) =>
    join(ROOT, 'samples', name),
  );

  it('are what the generators write', async () => {
    const fresh = await writeSamples(tempDir());
    for (const [i, path] of samples.entries()) {
      expect(await contents(path)).toEqual(await contents(fresh[i] ?? ''));
    }
  });

  it('convert into a valid bundle with branches, tool calls, attachments and memories', async () => {
    const { conversations, store, report, dir } = await convertToTemp(samples);
    for (const conversation of conversations) expect(conversationErrors(conversation)).toEqual([]);
    expect(memoryStoreErrors(store)).toEqual([]);
    expect(report.totals).toMatchObject({ conversations: 65, skipped: 0 });
    expect(report.totals.branches).toBeGreaterThan(0);
    expect(report.totals.toolCalls).toBeGreaterThan(0);
    expect(report.totals.attachmentsCopied).toBe(2);
    // The Claude.ai sample's pasted notes are written, each where its attachment points.
    const pasted = conversations.flatMap((c) =>
      c.messages.flatMap((m) =>
        m.attachments.filter((a) => a.ref?.startsWith('attachments/text/')),
      ),
    );
    expect(pasted.length).toBeGreaterThan(0);
    expect(report.totals.attachmentTexts).toBe(pasted.length);
    for (const a of pasted) expect(statSync(join(dir, a.ref ?? '')).size).toBe(a.size_bytes);
    expect(report.totals.memories).toBe(4);
    expect(store.owner.id).toBe('user-sample0account');
    expect(
      readFileSync(join(dir, 'attachments', 'file-Sample0Image1-diagram.png'))
        .subarray(1, 4)
        .toString(),
    ).toBe('PNG');
    expect(report.problems.filter((p) => p.level !== 'info')).toEqual([]);
  });
});
