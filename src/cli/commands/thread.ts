import type { Command } from 'commander';
import { branchThrough } from '../../api/view.js';
import { resolveThreadTarget } from '../../api/query.js';
import type { CliIo } from '../cli-io.js';
import { formatTranscript } from '../format-thread.js';
import {
  checkFormat,
  withFormatOptions,
  withReader,
  withStoreOptions,
  type StoreOptions,
} from '../store-options.js';

export type ThreadOptions = StoreOptions & {
  allBranches?: boolean;
  format: string;
  json?: boolean;
  tools?: boolean;
  /** False with `--no-color`. */
  color?: boolean;
  /** False with `--no-pager`. */
  pager?: boolean;
};

/**
 * Colour as git gives it: when standard output is a terminal that takes it, unless `--no-color`
 * or `NO_COLOR` (any value, https://no-color.org) says no.
 */
export function wantsColour(
  io: CliIo,
  options: { color?: boolean },
  env: NodeJS.ProcessEnv = process.env,
): boolean {
  return (
    io.stdoutIsTTY && options.color !== false && (env.NO_COLOR ?? '') === '' && env.TERM !== 'dumb'
  );
}

/**
 * `chatgraph thread <id>`: the shown thread in order, or every branch indented at forks; given
 * a message id (or the start of one), the branch through that message, the message marked.
 */
export async function runThread(id: string, options: ThreadOptions, io: CliIo): Promise<void> {
  const format = checkFormat(options.format, options.json);
  const allBranches = options.allBranches === true;
  const { info, messages, at, view } = await withReader(options, async (store, folder) => {
    const { conversation, messageId } = await resolveThreadTarget(store, id);
    const [all, view] = await Promise.all([
      store.thread(conversation.id, { allBranches: allBranches || messageId !== undefined }),
      // The bundle's side of the conversation: the platform's address and each message's sources.
      folder.view(conversation.id),
    ]);
    return {
      info: conversation,
      messages: messageId !== undefined && !allBranches ? branchThrough(all, messageId) : all,
      at: messageId,
      view,
    };
  });
  const url = view?.url ?? null;
  const views = new Map(view?.messages.map((m) => [m.id, m]) ?? []);
  const citations = new Map(view?.messages.map((m) => [m.id, m.citations]) ?? []);
  if (format === 'json') {
    io.out(
      JSON.stringify(
        {
          conversation: info,
          url,
          ...(at !== undefined ? { at } : {}),
          messages: messages.map((m) => ({ ...m, citations: citations.get(m.id) ?? [] })),
        },
        null,
        2,
      ),
    );
    return;
  }
  const lines = formatTranscript(info, messages, {
    allBranches,
    at,
    url,
    views,
    tools: options.tools === true,
    colour: wantsColour(io, options),
    width: io.terminal?.columns ?? 100,
    wrap: io.terminal !== undefined,
  });
  if (options.pager === false) for (const line of lines) io.out(line);
  else await io.page(lines.join('\n'));
}

export function registerThread(program: Command, io: CliIo): void {
  withFormatOptions(
    withStoreOptions(
      program
        .command('thread')
        .description(
          'print a conversation: the shown thread in order, every branch, or the branch through a message',
        )
        .argument(
          '<conversation-or-message-id>',
          "a conversation id (chatgraph's or the platform's) or a message id, whole or its first 8 or more characters",
        ),
    ),
    '{conversation: {id, platformId, title, name, source, createdAt, updatedAt, messageCount}, url: where it lives on its platform or null, at?: message id, messages: [{id, role, content, createdAt, model, parentId, isThought, hidden, onShownThread, depth, attachments, citations: [{title, url, snippet}]}]}',
  )
    .option(
      '--all-branches',
      'every message of every branch, an alternative branch indented one level at its fork',
    )
    .option('--tools', "each tool call's whole input and output (else one line a call)")
    .option('--no-color', 'no colour, even on a terminal (so does NO_COLOR)')
    .option(
      '--no-pager',
      'write straight out, not through the pager ($PAGER or less, with LESS=FRX) a long conversation opens in on a terminal',
    )
    .action((id: string, options: ThreadOptions) => runThread(id, options, io));
}
