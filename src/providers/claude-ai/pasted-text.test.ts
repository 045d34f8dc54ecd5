import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { InlineTexts, isInlineTextRef } from '../../bundle/inline-text.js';
import type { Conversation } from '../../model/pam.js';
import { toClaudeConversation } from './to-conversation.js';

function convert(attachments: unknown[], texts: InlineTexts): Conversation | undefined {
  return toClaudeConversation(
    {
      uuid: 'c1',
      chat_messages: [
        {
          uuid: 'm1',
          sender: 'human',
          created_at: '2025-01-01T00:00:00Z',
          text: 'hi',
          attachments,
        },
      ],
    },
    'array',
    {
      record: '#0',
      file: 'conversations.json',
      fallbackTime: undefined,
      report: () => undefined,
      resolveAsset: () => undefined,
      attachText: texts.attach,
    },
  );
}

describe('Claude.ai pasted text', () => {
  it('keeps any text whole behind a ref of its own, sized in UTF-8 bytes', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            file_name: fc.oneof(fc.string(), fc.constant(undefined)),
            extracted_content: fc.string({ minLength: 1, unit: 'grapheme' }),
            file_type: fc.oneof(fc.string(), fc.constant('text/markdown'), fc.constant(undefined)),
          }),
          { maxLength: 6 },
        ),
        (attachments) => {
          const texts = new InlineTexts();
          const conversation = convert(attachments, texts);
          const kept = conversation?.messages[0]?.attachments ?? [];
          expect(kept).toHaveLength(attachments.length);
          const refs = kept.map((a) => a.ref ?? '');
          expect(new Set(refs).size).toBe(refs.length);
          kept.forEach((a, i) => {
            const text = attachments[i]?.extracted_content ?? '';
            expect(isInlineTextRef(a.ref ?? '')).toBe(true);
            expect(a.ref?.startsWith(`attachments/text/${conversation?.id ?? ''}/`)).toBe(true);
            expect(texts.lookup(a.ref ?? '')).toBe(text);
            expect(a.size_bytes).toBe(Buffer.byteLength(text, 'utf8'));
            expect(a.mime_type).toBe(
              attachments[i]?.file_type === 'text/markdown' ? 'text/markdown' : 'text/plain',
            );
          });
          // The text is not kept a second time.
          expect(JSON.stringify(conversation?.messages[0]?.raw_metadata)).not.toContain(
            'extracted_content',
          );
        },
      ),
    );
  });
});
