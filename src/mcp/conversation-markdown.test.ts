import { describe, expect, it } from 'vitest';
import type { ConversationInfo } from '../api/query.js';
import type { ThreadMessage } from '../api/view.js';
import { conversationMarkdown } from './conversation-markdown.js';

const INFO: ConversationInfo = {
  id: 'c',
  platformId: 'p',
  title: 'T',
  name: 'T',
  source: 'claude-ai',
  createdAt: '2025-02-01T10:00:00.000000Z',
  updatedAt: null,
  messageCount: 1,
};

function message(attachments: ThreadMessage['attachments']): ThreadMessage {
  return {
    id: 'm',
    role: 'user',
    content: 'Summarise these',
    createdAt: '2025-02-01T10:00:00.000000Z',
    model: null,
    parentId: null,
    isThought: false,
    hidden: false,
    onShownThread: true,
    depth: 0,
    attachments,
  };
}

describe('conversationMarkdown', () => {
  it('gives pasted text under its name, fenced past any fence inside it', () => {
    const pasted = 'notes\n````\ninner\n````';
    const markdown = conversationMarkdown(INFO, [
      message([
        {
          id: 'a0',
          name: 'notes.txt',
          mimeType: 'text/plain',
          ref: 'attachments/text/c/1-notes.txt',
          sizeBytes: 23,
          text: pasted,
        },
        { id: 'a1', name: 'photo.png', mimeType: null, ref: null, sizeBytes: null, text: null },
      ]),
    ]);
    expect(markdown).toContain(
      [
        'Summarise these',
        '',
        '### Attachment: notes.txt (text/plain, 23 bytes)',
        '',
        '`````',
        pasted,
        '`````',
        '',
        '### Attachment: photo.png (not in the export)',
      ].join('\n'),
    );
  });
});
