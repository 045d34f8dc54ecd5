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

/** A flag the command does not take, said in one line with the closest it does take. */
export function unknownOption(command: Command, typed: string, hint?: string): UsageError {
  const flag = typed.split('=')[0] ?? typed;
  const flags = command.options.flatMap((o) => (o.long ? [o.long] : []));
  const near = closest(flag, [...flags, '--help']);
  return new UsageError(
    `unknown option ${flag} for ${pathOf(command).replace(/^chatgraph /, '')} (${near !== undefined ? `did you mean ${near}?` : (hint ?? `${pathOf(command)} --help lists them`)})`,
    usageLine(command),
  );
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
