import type { Command } from 'commander';
import type { ConversationInfo, ThreadMessage } from '../../index.js';
import type { CliIo } from '../cli-io.js';
import { formatAttachments } from '../format-attachments.js';
import {
  checkFormat,
  withFormatOptions,
  withStore,
  withStoreOptions,
  type StoreOptions,
} from '../store-options.js';
import { plural } from '../plural.js';

export type ThreadOptions = StoreOptions & {
  allBranches?: boolean;
  format: string;
  json?: boolean;
};

/** `chatgraph thread <id>`: the shown thread in order, or every branch indented by depth. */
export async function runThread(id: string, options: ThreadOptions, io: CliIo): Promise<void> {
  const format = checkFormat(options.format, options.json);
  const { info, messages } = await withStore(options, async (store) => {
    const info = await store.conversation(id);
    return {
      info,
      messages: await store.thread(id, { allBranches: options.allBranches === true }),
    };
  });
  if (format === 'json') {
    io.out(JSON.stringify({ conversation: info, messages }, null, 2));
    return;
  }
  printTranscript(info, messages, options.allBranches === true, io);
}

function printTranscript(
  info: ConversationInfo | undefined,
  messages: ThreadMessage[],
  allBranches: boolean,
  io: CliIo,
): void {
  if (info)
    io.out(
      `# ${info.name} (${info.source}, ${info.createdAt.slice(0, 10)}, ${plural(info.messageCount, 'message')})\n`,
    );
  // A hidden message with no text (ChatGPT's empty system prompt) is noise in a transcript.
  for (const message of messages.filter((m) => !(m.hidden && m.content.trim() === ''))) {
    const indent = allBranches ? '  '.repeat(message.depth) : '';
    const marks = [
      message.isThought ? 'thought' : '',
      message.hidden ? 'hidden' : '',
      allBranches && message.onShownThread ? 'shown' : '',
    ]
      .filter(Boolean)
      .join(', ');
    io.out(`${indent}[${message.role}${marks ? `, ${marks}` : ''}] ${message.createdAt}`);
    io.out(`${indent}${message.content.split('\n').join(`\n${indent}`)}\n`);
    if (message.attachments.length > 0)
      io.out(`${formatAttachments(message.attachments, indent)}\n`);
  }
}

export function registerThread(program: Command, io: CliIo): void {
  withFormatOptions(
    withStoreOptions(
      program
        .command('thread')
        .description('print a conversation: the shown thread in order, or every branch')
        .argument('<conversation-id>', "chatgraph's or the platform's conversation id"),
    ),
    '{conversation: {id, platformId, title, name, source, createdAt, updatedAt, messageCount}, messages: [{id, role, content, createdAt, model, parentId, isThought, hidden, onShownThread, depth, attachments}]}',
  )
    .option('--all-branches', 'every message of every branch, indented by depth')
    .action((id: string, options: ThreadOptions) => runThread(id, options, io));
}
