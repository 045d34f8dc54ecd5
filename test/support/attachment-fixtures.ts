import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inlineTextReader } from '../../src/bundle/read-inline-text.js';
import type { GraphBatch } from '../../src/graph/graph-batch.js';
import { projectConversation } from '../../src/graph/project-conversation.js';
import { convertToTemp, tempDir } from './convert-to-temp.js';
import { bundleAt } from './bundle-at.js';

/** Text pasted into a Claude.ai conversation: a word found nowhere else, and code with a fence. */
export const PASTED_NOTES =
  'Meeting notes\nThe quokka budget is approved.\n```\nfenced inside\n```';
export const PASTED_UNNAMED = 'second paste: zanzibar <img src=x onerror="window.__xss=1">';

/**
 * A Claude.ai export conversation whose first prompt carries two pasted texts (one named, one
 * not), an attachment the export has no text for, and an uploaded image.
 */
export function pastedClaudeConversation(uuid = 'cl-paste'): Record<string, unknown> {
  return {
    uuid,
    name: 'Pasted notes',
    created_at: '2025-02-01T10:00:00Z',
    updated_at: '2025-02-01T10:05:00Z',
    account: { uuid: 'acc-1' },
    chat_messages: [
      {
        uuid: 'p1',
        sender: 'human',
        created_at: '2025-02-01T10:00:00Z',
        text: 'Summarise these',
        content: [{ type: 'text', text: 'Summarise these' }],
        attachments: [
          {
            file_name: 'notes.txt',
            file_size: 999,
            file_type: 'txt',
            extracted_content: PASTED_NOTES,
          },
          { file_name: '', file_size: 58, file_type: 'txt', extracted_content: PASTED_UNNAMED },
          { file_name: 'scan.pdf', file_size: 12345, file_type: 'application/pdf' },
        ],
        files: [{ file_name: 'photo.png' }],
      },
      {
        uuid: 'p2',
        sender: 'assistant',
        created_at: '2025-02-01T10:01:00Z',
        text: 'The budget is approved.',
        content: [{ type: 'text', text: 'The budget is approved.' }],
        attachments: [],
        files: [],
      },
    ],
  };
}

/** {@link pastedClaudeConversation} converted and projected as an import does (texts read from its bundle). */
export async function pastedBatch(): Promise<GraphBatch> {
  const input = join(tempDir(), 'conversations.json');
  writeFileSync(input, JSON.stringify([pastedClaudeConversation()]));
  const { dir, conversations } = await convertToTemp([input]);
  const conversation = conversations[0];
  if (!conversation) throw new Error('the pasted conversation did not convert');
  return projectConversation(
    conversation,
    { source: 'claude-ai', label: 'Claude AI' },
    { deep: true, attachmentText: inlineTextReader(bundleAt(dir)) },
  );
}
