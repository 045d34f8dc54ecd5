import { readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { layoutOf } from '../src/folder/layout.js';
import { importExports } from '../src/data-folder/import-exports.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { branchedConversation } from './support/chatgpt-builder.js';
import { tempDir } from './support/convert-to-temp.js';
import { Folder } from '../src/folder/folder.js';

// Distinctive secrets, so their bytes can be looked for in the store file.
const OPENAI = 'sk-proj-Zq8vLmW3xYt5NpR7KdJ2hF9cBg4';
const HF = 'hf_QwErTyUiOpAsDfGhJkLzXcVbNm1234567';

function exportWithSecrets(dir: string): string {
  const conversations = Array.from({ length: 20 }, (_, n) => {
    const conversation = branchedConversation(`conv-${n}`, `Conversation ${n}`);
    const mapping = conversation.mapping as Record<string, { message: Record<string, unknown> }>;
    (mapping.u as { message: Record<string, unknown> }).message.content = {
      content_type: 'text',
      parts: [`deploy with ${OPENAI} and pull the model with ${HF}, conversation ${n}`],
    };
    return conversation;
  });
  const input = join(dir, 'conversations.json');
  writeFileSync(input, JSON.stringify(conversations));
  return input;
}

// Every byte the data folder's store keeps: the file and, if any, its WAL.
function storeBytes(data: string): Buffer {
  const file = layoutOf(data).store;
  return Buffer.concat(
    [file, `${file}-wal`].filter((f) => existsSync(f)).map((f) => readFileSync(f)),
  );
}

function bundleText(data: string): string {
  const dir = join(layoutOf(data).bundle.dir, 'conversations');
  return readdirSync(dir)
    .map((f) => readFileSync(join(dir, f), 'utf8'))
    .join('\n');
}

describe('import --redact after a plain import', () => {
  it('is not skipped by checksum, masks what was written, and leaves no old secret bytes in the store', async () => {
    const dir = tempDir();
    const input = exportWithSecrets(dir);
    const data = join(dir, 'data');
    await importExports(new Folder(data), [input]);
    expect(bundleText(data)).toContain(OPENAI);
    expect(storeBytes(data).includes(OPENAI)).toBe(true);
    // The search index holds the token's words too.
    expect(storeBytes(data).includes('qwertyuiopasdfghjklzxcvbnm1234567')).toBe(true);
    expect(storeBytes(data).includes('zq8vlmw3xyt5npr7kdj2hf9cbg4')).toBe(true);

    const redacted = await importExports(new Folder(data), [input], { redact: true });
    expect(redacted.problems.map((p) => p.code)).not.toContain('file-already-imported');
    expect(redacted.redactions).toEqual({ 'openai-key': 20, 'huggingface-token': 20 });
    expect(redacted.graph.written).toBe(20);
    expect(bundleText(data)).not.toContain(OPENAI);
    expect(bundleText(data)).toContain('[REDACTED:openai-key]');
    const bytes = storeBytes(data);
    expect(bytes.includes(OPENAI)).toBe(false);
    expect(bytes.includes(HF)).toBe(false);
    expect(bytes.includes('qwertyuiopasdfghjklzxcvbnm1234567')).toBe(false);
    expect(bytes.includes('zq8vlmw3xyt5npr7kdj2hf9cbg4')).toBe(false);
    const store = SqliteStore.open(layoutOf(data).store, { readonly: true });
    try {
      expect((await store.search({ text: 'REDACTED' })).hits.length).toBeGreaterThan(0);
    } finally {
      await store.close();
    }

    // The same mode again is skipped; --force reads it anyway.
    const again = await importExports(new Folder(data), [input], { redact: true });
    expect(again.problems.map((p) => p.code)).toContain('file-already-imported');
    const forced = await importExports(new Folder(data), [input], { redact: true, force: true });
    expect(forced.problems.map((p) => p.code)).not.toContain('file-already-imported');
    expect(forced.graph).toMatchObject({ written: 0, unchanged: 20 });
  });
});

describe('import --redact of an older export after a plain import of a newer one', () => {
  it('masks the attachment texts the kept newer copy refers to', async () => {
    const SECRET = `sk-ant-api03-${'Zq7'.repeat(12)}`;
    const dir = tempDir();
    const claude = (updated: string, texts: string[]) => [
      {
        uuid: 'conv-inline-1',
        name: 'Keys',
        created_at: '2026-01-01T00:00:00Z',
        updated_at: updated,
        chat_messages: texts.map((text, i) => ({
          uuid: `m-${i}`,
          text,
          sender: i % 2 ? 'assistant' : 'human',
          created_at: `2026-01-01T00:00:0${i}Z`,
          attachments:
            i === 0
              ? [
                  {
                    file_name: 'env.txt',
                    file_type: 'text/plain',
                    file_size: 60,
                    extracted_content: `ANTHROPIC_API_KEY=${SECRET}\n`,
                  },
                ]
              : [],
          files: [],
        })),
      },
    ];
    const newer = join(dir, 'newer.json');
    const older = join(dir, 'older.json');
    writeFileSync(newer, JSON.stringify(claude('2026-01-03T00:00:00Z', ['my env', 'ok', 'more'])));
    writeFileSync(older, JSON.stringify(claude('2026-01-02T00:00:00Z', ['my env', 'ok'])));
    const data = join(dir, 'data');
    await importExports(new Folder(data), [newer]);
    const holding = () =>
      filesUnder(layoutOf(data).bundle.dir).filter((f) => readFileSync(f).includes(SECRET));
    expect(holding()).not.toEqual([]);
    const second = await importExports(new Folder(data), [older], { redact: true });
    expect(second.providers.claude?.keptNewer).toBe(1);
    expect(holding()).toEqual([]);
    const texts = filesUnder(layoutOf(data).bundle.dir).filter((f) => f.endsWith('env.txt'));
    expect(texts).toHaveLength(1);
    expect(readFileSync(texts[0] ?? '', 'utf8')).toContain('ANTHROPIC_API_KEY=[REDACTED:');
  });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

describe('a bundle whose index disagrees with its files', () => {
  it('is repaired by the next import, even one skipped by checksum', async () => {
    const dir = tempDir();
    const input = exportWithSecrets(dir);
    const data = join(dir, 'data');
    await importExports(new Folder(data), [input]);
    const path = join(layoutOf(data).bundle.dir, 'memory-store.json');
    const store = JSON.parse(readFileSync(path, 'utf8')) as {
      conversations_index: { id: string }[];
    };
    const full = store.conversations_index.map((e) => e.id).sort();
    // A writer that lost a race: six entries missing, and one naming a file that is not there.
    store.conversations_index = [
      ...store.conversations_index.slice(6),
      { ...(store.conversations_index[0] as { id: string }), id: 'no-such-file' },
    ];
    writeFileSync(path, JSON.stringify(store));
    const again = await importExports(new Folder(data), [input]);
    expect(again.problems.map((p) => p.code)).toEqual(
      expect.arrayContaining(['bundle-index-repaired', 'file-already-imported']),
    );
    const repaired = JSON.parse(readFileSync(path, 'utf8')) as typeof store;
    expect(repaired.conversations_index.map((e) => e.id).sort()).toEqual(full);
  });
});
