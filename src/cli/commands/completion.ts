import type { Command } from 'commander';
import type { CliIo } from '../cli-io.js';
import { checkChoice, type Choice } from '../choices.js';
import { bashScript } from '../completion/bash-script.js';
import { completionTree } from '../completion/completion-tree.js';
import { fishScript } from '../completion/fish-script.js';
import { zshScript } from '../completion/zsh-script.js';
import { withReader, withStoreOptions, type StoreOptions } from '../store-options.js';

const SHELL_CHOICE: Choice<'bash' | 'zsh' | 'fish'> = {
  noun: 'shell',
  plural: 'shells',
  values: ['bash', 'zsh', 'fish'],
};

/** How many ids `__complete ids` offers: the last updated, enough to pick from, quick to list. */
const ID_LIMIT = 200;

/** `chatgraph completion <shell>`: the script, made from the program's own commands and options. */
export function runCompletion(program: Command, shell: string, io: CliIo): void {
  const tree = completionTree(program);
  const script = { bash: bashScript, zsh: zshScript, fish: fishScript }[
    checkChoice('shell', shell, SHELL_CHOICE)
  ](tree);
  io.out(script.replace(/\n$/, ''));
}

/**
 * `chatgraph __complete ids`: the conversation ids a completion script offers, last updated
 * first; nothing at all (and exit 0) when there is no store, so a shell never shows an error.
 */
export async function runCompleteIds(options: StoreOptions, io: CliIo): Promise<void> {
  try {
    const page = await withReader(options, (store) =>
      store.listConversations({ sort: 'updated', limit: ID_LIMIT }),
    );
    for (const conversation of page.items) io.out(conversation.id);
  } catch {
    // A shell completing a word has nowhere to show an error.
  }
}

export function registerCompletion(program: Command, io: CliIo): void {
  program
    .command('completion')
    .description('print the shell completion script: bash, zsh or fish (see docs/cli.md)')
    .argument('<shell>', 'bash, zsh or fish')
    .action((shell: string) => {
      runCompletion(program, shell, io);
    });
  withStoreOptions(
    program.command('__complete', { hidden: true }).argument('<what>', 'ids'),
  ).action((what: string, options: StoreOptions) =>
    what === 'ids' ? runCompleteIds(options, io) : undefined,
  );
}
