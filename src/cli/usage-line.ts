import type { Command, CommanderError } from 'commander';
import { closest } from './did-you-mean.js';
import { UsageError } from './usage-error.js';

/** The command's words from the top (`chatgraph model fetch`). */
function pathOf(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** The command's usage line alone: `usage: chatgraph search [options] <terms...>`. */
export function usageLine(command: Command): string {
  return `usage: ${pathOf(command)} ${command.usage()}`;
}

/** The commands of the whole program that take this long flag, by their words. */
function takenBy(command: Command, flag: string): string[] {
  let root = command;
  while (root.parent) root = root.parent;
  const found: string[] = [];
  const walk = (at: Command): void => {
    if (at !== command && at.options.some((o) => o.long === flag))
      found.push(pathOf(at).replace(/^chatgraph /, ''));
    for (const sub of at.commands) walk(sub);
  };
  walk(root);
  return found.sort();
}

function listed(names: readonly string[]): string {
  return names.length < 2
    ? (names[0] ?? '')
    : `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`;
}

/**
 * A flag the command does not take, said in one line with the closest it does take; a flag
 * other commands take (`import --source`) is said to be theirs rather than taken for a typo.
 */
export function unknownOption(command: Command, typed: string, hint?: string): UsageError {
  const flag = typed.split('=')[0] ?? typed;
  const name = pathOf(command).replace(/^chatgraph /, '');
  const others = takenBy(command, flag);
  const flags = command.options.flatMap((o) => (o.long ? [o.long] : []));
  const near = others.length > 0 ? undefined : closest(flag, [...flags, '--help']);
  const why =
    near !== undefined
      ? `did you mean ${near}?`
      : others.length > 0
        ? `${listed(others.length > 4 ? [...others.slice(0, 3), 'others'] : others)} ${others.length === 1 ? 'takes' : 'take'} it; ${pathOf(command)} --help lists what ${name} takes`
        : (hint ?? `${pathOf(command)} --help lists them`);
  return new UsageError(`unknown option ${flag} for ${name} (${why})`, usageLine(command));
}

/** A command the program (or `model`) does not have, said in one line with the closest it has. */
function unknownCommand(command: Command, typed: string): UsageError {
  const names = command.commands.flatMap((c) => [c.name(), ...c.aliases()]);
  const near = closest(typed, names);
  return new UsageError(
    `unknown command ${typed} (${near !== undefined ? `did you mean ${near}?` : `${pathOf(command)} --help lists them`})`,
    usageLine(command),
  );
}

/**
 * What commander found wrong with a command line, as one of ours: one line (with "did you
 * mean" for a typo) and the usage line of that command only, instead of its whole help.
 */
export function parseProblem(command: Command, error: CommanderError): UsageError {
  const quoted = /'([^']*)'/.exec(error.message)?.[1] ?? '';
  if (error.code === 'commander.unknownOption') return unknownOption(command, quoted);
  if (error.code === 'commander.unknownCommand') return unknownCommand(command, quoted);
  const first = (error.message.split('\n')[0] ?? '').replace(/^error: /, '');
  return new UsageError(first, usageLine(command));
}
