import { projectConversation } from '../../src/graph/project-conversation.js';
import { inlineTextReader } from '../../src/bundle/read-inline-text.js';
import type { GraphBatch } from '../../src/graph/graph-batch.js';
import type { Conversation } from '../../src/model/pam.js';
import { findProvider } from '../../src/providers/registry.js';
import { branchedConversation } from './chatgpt-builder.js';
import { convertToTemp, tempDir } from './convert-to-temp.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleAt } from './bundle-at.js';

/**
 * Projects converted conversations as the importer does, IMPORTED edges included (pasted text
 * read from `bundle`, when given).
 */
export function batchesOf(
  conversations: readonly Conversation[],
  deep = true,
  bundle?: string,
): GraphBatch[] {
  return conversations.map((conversation) => {
    const provider = findProvider(conversation.provider.name);
    if (!provider) throw new Error(`no provider ${conversation.provider.name}`);
    return projectConversation(conversation, provider, {
      deep,
      ...(bundle !== undefined ? { attachmentText: inlineTextReader(bundleAt(bundle)) } : {}),
    });
  });
}

/** A known small dataset: two ChatGPT conversations and one Claude.ai conversation with a tool call. */
export async function knownConversations(): Promise<Conversation[]> {
  const dir = tempDir();
  const chatgpt = join(dir, 'chatgpt.json');
  const a = branchedConversation('gpt-a', 'Alpha about sourdough');
  a.create_time = 1_700_000_000;
  const b = branchedConversation('gpt-b', null);
  b.create_time = 1_710_000_000;
  writeFileSync(chatgpt, JSON.stringify([a, b]));
  const claude = join(dir, 'claude.json');
  writeFileSync(
    claude,
    JSON.stringify([
      {
        uuid: 'cl-1',
        name: 'Claude on bread',
        created_at: '2025-01-01T10:00:00Z',
        updated_at: '2025-01-01T10:05:00Z',
        chat_messages: [
          {
            uuid: 'q1',
            sender: 'human',
            created_at: '2025-01-01T10:00:00Z',
            content: [{ type: 'text', text: 'How long should sourdough proof?' }],
          },
          {
            uuid: 'a1',
            sender: 'assistant',
            created_at: '2025-01-01T10:01:00Z',
            content: [
              { type: 'tool_use', id: 't1', name: 'web_search', input: { query: 'proofing time' } },
              {
                type: 'tool_result',
                tool_use_id: 't1',
                content: [{ type: 'text', text: 'four hours' }],
              },
              { type: 'text', text: 'About four hours at room temperature.' },
            ],
          },
        ],
      },
    ]),
  );
  const { conversations } = await convertToTemp([chatgpt, claude]);
  return conversations;
}
