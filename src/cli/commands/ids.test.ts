import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { branchedConversation } from '../../../test/support/chatgpt-builder.js';
import { tempDir } from '../../../test/support/convert-to-temp.js';
import { memoryIo } from '../cli-io.js';
import { runCli } from '../run-cli.js';

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo();
  const code = await runCli(['node', 'chatgraph', ...args], io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

async function imported(): Promise<string> {
  const dir = tempDir();
  const file = join(dir, 'two.json');
  writeFileSync(
    file,
    JSON.stringify([
      branchedConversation('shared-prefix-one', 'Forked one'),
      branchedConversation('shared-prefix-two', 'Forked two'),
    ]),
  );
  const data = join(dir, 'data');
  expect((await cli('import', file, '--data-dir', data, '-q')).code).toBe(0);
  return data;
}

describe('delete, remember and forget take ids typed short', () => {
  it('delete refuses a shared start (exit 2, naming both) and deletes by a unique one', async () => {
    const data = await imported();
    const shared = await cli('delete', 'shared-prefix', '--data-dir', data);
    expect(shared.code).toBe(2);
    expect(shared.err).toMatch(
      /^chatgraph: "shared-prefix" starts the ids of 2 conversations: \S+ "Forked one", \S+ "Forked two"; give more characters$/,
    );
    const listed = await cli('list', '--data-dir', data, '--json');
    const { conversations } = JSON.parse(listed.out) as {
      conversations: { id: string; title: string }[];
    };
    const two = conversations.find((c) => c.title === 'Forked two')?.id ?? '';
    const deleted = await cli('delete', two.slice(0, 8), '--data-dir', data);
    expect(deleted.code, deleted.err).toBe(0);
    expect(deleted.out).toMatch(new RegExp(`^deleted conversation ${two} `));
    expect((await cli('thread', 'shared-prefix-two', '--data-dir', data)).code).toBe(2);
  });

  it('remember --message takes the short id thread prints; forget the start of a memory id', async () => {
    const data = await imported();
    const thread = await cli('thread', 'shared-prefix-one', '--data-dir', data);
    const lines = thread.out.split('\n');
    const header = lines[lines.findIndex((l) => l === 'hello') - 1] ?? '';
    const short = / id (\S+)$/.exec(header)?.[1] ?? '';
    expect(short.length).toBeGreaterThanOrEqual(8);
    const made = await cli(
      'remember',
      'greets first',
      '--type',
      'fact',
      '--message',
      short,
      '--data-dir',
      data,
      '--json',
    );
    expect(made.code, made.err).toBe(0);
    const { memory } = JSON.parse(made.out) as {
      memory: { id: string; source: { conversationId: string; messageId: string } };
    };
    const one = await cli('thread', 'shared-prefix-one', '--data-dir', data, '--json');
    const { conversation } = JSON.parse(one.out) as { conversation: { id: string } };
    expect(memory.source.conversationId).toBe(conversation.id);
    expect(memory.source.messageId).toMatch(
      new RegExp(`^${memory.source.conversationId}:${short}`),
    );
    const forgot = await cli('forget', memory.id.slice(0, 8), '--data-dir', data);
    expect(forgot.code, forgot.err).toBe(0);
    expect(forgot.out).toBe(`forgot ${memory.id}: greets first`);
    const shortMessage = await cli(
      'remember',
      'x',
      '--type',
      'fact',
      '--message',
      short.slice(0, 4),
      '--data-dir',
      data,
    );
    expect(shortMessage.code).toBe(2);
    expect(shortMessage.err).toMatch(/^chatgraph: there is no message with id \w{4} \(the start/);
  });
});
