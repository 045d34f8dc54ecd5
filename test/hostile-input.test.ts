import { statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { convertToTemp } from './support/convert-to-temp.js';
import { writeHostileCorpus } from './support/hostile-corpus.js';
import { conversationErrors, memoryStoreErrors } from './support/pam-validator.js';

describe('one hostile record or attachment costs only itself', () => {
  it('converts the hostile corpus: every good conversation written, each fault reported', async () => {
    const { conversations, report, store, dir } = await convertToTemp(await writeHostileCorpus());
    const codes = new Map(report.problems.map((p) => [p.code, p.count]));
    const ids = conversations.map((c) => c.provider.conversation_id);
    // Nested 100,000 levels deep: kept, the deep part cut and reported, no stack overflow.
    expect(ids).toEqual(expect.arrayContaining(['deep', 'good-after-deep', 'backwards']));
    expect(codes.get('nesting-cut')).toBe(1);
    // Its 200 KB of brackets stay small once written (indentation grew with depth squared).
    const deep = conversations.find((c) => c.provider.conversation_id === 'deep');
    expect(statSync(join(dir, 'conversations', `${deep?.id ?? ''}.json`)).size).toBeLessThan(
      100_000,
    );
    // The zip bomb fails only its attachment.
    expect(ids).toEqual(expect.arrayContaining(['bomb-image', 'fine-image']));
    expect(codes.get('attachment-unreadable')).toBe(1);
    expect(report.totals.attachmentsCopied).toBe(1);
    // The Gemini file with &#99999999; gives its three exchanges.
    const gemini = conversations.filter((c) => c.provider.name === 'gemini');
    expect(gemini).toHaveLength(3);
    const texts = gemini.flatMap((c) => c.messages.map((m) => m.content?.text ?? ''));
    expect(texts).toContain('bad entity \ufffd here');
    // Update before creation: fixed and counted.
    expect(codes.get('updated-before-created')).toBe(1);
    for (const entry of store.conversations_index)
      expect((entry.temporal.updated_at ?? '') >= entry.temporal.created_at).toBe(true);
    for (const conversation of conversations) expect(conversationErrors(conversation)).toEqual([]);
    expect(memoryStoreErrors(store)).toEqual([]);
  }, 120_000);
});
