import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cutOffJson } from './cut-off-json.js';
import { openSource } from './open-source.js';

async function cutOf(name: string, text: string): Promise<string | undefined> {
  const dir = mkdtempSync(join(tmpdir(), 'chatgraph-cut-'));
  const path = join(dir, name);
  writeFileSync(path, text);
  const source = await openSource(path);
  try {
    return await cutOffJson([source]);
  } finally {
    await source.close();
  }
}

describe('cutOffJson', () => {
  it('names a small JSON file that stops in the middle', async () => {
    expect(await cutOf('conversations.json', '[{"title": "Ha')).toBe('conversations.json');
  });

  it('leaves a whole file longer than its head alone, though its head holds fewer characters than bytes', async () => {
    // A Cline task history: 70 KB of JSON whose text is mostly three-byte characters, so its
    // first 64 KiB are fewer than 64 Ki characters and do not parse on their own.
    const text = JSON.stringify([{ role: 'user', content: '→'.repeat(24_000) }]);
    expect(Buffer.byteLength(text)).toBeGreaterThan(64 * 1024);
    expect(await cutOf('api_conversation_history.json', text)).toBeUndefined();
  });
});
