import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importExports } from '../src/data-folder/import-exports.js';
import { PASTED_NOTES, pastedClaudeConversation } from './support/attachment-fixtures.js';
import { tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';
import { cleanUp } from './support/clean-up.js';
import { Folder } from '../src/folder/folder.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');

type CallResult = { content: { type: string; text: string }[] };

describe('MCP server (built CLI) and pasted text', () => {
  let client: Client;
  beforeAll(async () => {
    const dir = tempDir();
    const input = join(dir, 'conversations.json');
    writeFileSync(input, JSON.stringify([pastedClaudeConversation()]));
    const data = join(dir, 'data');
    await importExports(new Folder(data), [input]);
    client = new Client({ name: 'chatgraph-test', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [CLI, 'mcp', '--data-dir', data],
        stderr: 'ignore',
      }),
    );
  });
  afterAll(
    cleanUp(async () => {
      await client.close();
    }),
  );

  it('gives pasted text with its message in a conversation and in a message context', async () => {
    const fenced = ['### Attachment: notes.txt (text/plain, ', '````', PASTED_NOTES, '````'];
    const conversation = (await client.callTool({
      name: 'get_conversation',
      arguments: { id: 'cl-paste' },
    })) as CallResult;
    const text = conversation.content[0]?.text ?? '';
    for (const part of fenced) expect(text).toContain(part);
    expect(text).toContain('### Attachment: photo.png (not in the export)');

    const resource = await client.readResource({ uri: 'chatgraph://conversation/cl-paste' });
    expect((resource.contents[0] as { text: string }).text).toContain(PASTED_NOTES);

    const rows = (await client.callTool({
      name: 'run_cypher',
      arguments: { query: "MATCH (m:Message {role: 'assistant'}) RETURN m.id AS id" },
    })) as { structuredContent?: { rows: { id: string }[] } };
    const reply = rows.structuredContent?.rows[0]?.id ?? '';
    const context = (await client.callTool({
      name: 'get_message_context',
      arguments: { message_id: reply, before: 1, after: 0 },
    })) as CallResult;
    const contextText = context.content[0]?.text ?? '';
    for (const part of fenced) expect(contextText).toContain(part);
  });
});
