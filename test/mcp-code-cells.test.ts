import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importExports } from '../src/data-folder/import-exports.js';
import { CELL, codeCellConversation } from './support/code-cell-fixture.js';
import { tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';
import { cleanUp } from './support/clean-up.js';
import { Folder } from '../src/folder/folder.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');

type CallResult = { content: { type: string; text: string }[] };

describe('MCP server (built CLI) and a code-interpreter cell', () => {
  let client: Client;
  beforeAll(async () => {
    const dir = tempDir();
    const input = join(dir, 'conversations.json');
    writeFileSync(input, JSON.stringify([codeCellConversation()]));
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

  it('gives the cell as a fenced Python block, once, in get_conversation and the resource', async () => {
    const fenced = `\`\`\`python\n${CELL}\n\`\`\``;
    const conversation = (await client.callTool({
      name: 'get_conversation',
      arguments: { id: 'cell-1' },
    })) as CallResult;
    const text = conversation.content[0]?.text ?? '';
    expect(text).toContain(fenced);
    expect(text.split('# then print them').length - 1).toBe(1);
    // The answer after it is prose, not fenced.
    expect(text).toContain('\n\nThe sum is **14**.\n');

    const resource = await client.readResource({ uri: 'chatgraph://conversation/cell-1' });
    expect((resource.contents[0] as { text: string }).text).toContain(fenced);
  });
});
