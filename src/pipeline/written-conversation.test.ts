import { describe, expect, it } from 'vitest';
import { conversationText } from '../bundle/conversation-text.js';
import { knownConversations } from '../../test/support/graph-fixtures.js';
import { parseWrittenConversation } from './written-conversation.js';

// The text a conversation was written as is read back as that conversation; a text that is not
// one (a bug: this process wrote it) is named with the first field that does not fit.

const IMPORTED = {
  importer: 'chatgraph',
  importer_version: null,
  imported_at: '2026-01-01T00:00:00Z',
  source_file: 'conversations.json',
  source_checksum: 'sha256:0',
};

describe('a conversation this process wrote, read back', () => {
  it('is the conversation it was written from', async () => {
    for (const conversation of await knownConversations()) {
      const { import_metadata: meta, ...content } = conversation;
      const { text } = conversationText(content, meta ?? IMPORTED, true);
      expect(parseWrittenConversation(text, conversation.id)).toEqual(JSON.parse(text));
    }
  });

  it('is refused as a bug when it is not a conversation, naming the field', async () => {
    const [conversation] = await knownConversations();
    if (!conversation) throw new Error('no conversation');
    const bad = (edit: (value: Record<string, unknown>) => void): string => {
      const value = JSON.parse(JSON.stringify(conversation)) as Record<string, unknown>;
      edit(value);
      return JSON.stringify(value);
    };
    expect(() => parseWrittenConversation('[]', 'c1')).toThrow(
      'chatgraph cannot read back the conversation c1 it wrote (the text does not fit): this is a bug',
    );
    expect(() =>
      parseWrittenConversation(
        bad((v) => (v.schema = 'x')),
        'c1',
      ),
    ).toThrow('(schema does not fit)');
    expect(() =>
      parseWrittenConversation(
        bad((v) => {
          v.messages = [{ id: 'm1', parent_id: 3, children_ids: [] }];
        }),
        'c1',
      ),
    ).toThrow('(messages.0.parent_id does not fit)');
  });
});
