import type { Command, Option } from 'commander';
import {
  FORMAT_CHOICE,
  MEMORY_TYPE_CHOICE,
  MODE_CHOICE,
  ROLE_CHOICE,
  type Choice,
} from '../choices.js';
import { SOURCE_CHOICE } from '../source-choice.js';
import { SORT_CHOICE } from '../commands/list.js';
import { MODEL_SOURCE_CHOICE } from '../model-command.js';

/** What an option's value completes to: fixed values, folders, files, or anything. */
export type ValueKind = readonly string[] | 'dir' | 'file' | 'any';

/** One option as a completion script offers it. */
export interface CompletionOption {
  /** `--source`, and `-q` when it has a short form. */
  long: string;
  short?: string;
  description: string;
  /** Absent for a flag without a value. */
  value?: ValueKind;
}

/** One command (or subcommand) as a completion script offers it. */
export interface CompletionCommand {
  /** Its name and those of its parents, below the program (`['model', 'fetch']`). */
  path: string[];
  aliases: string[];
  description: string;
  options: CompletionOption[];
  subcommands: CompletionCommand[];
  /** Its first argument is a conversation id (the store's ids are offered). */
  ids: boolean;
  /** It takes paths as arguments (exports, folders, files). */
  files: boolean;
  /** The fixed values of its first argument (`completion`'s shells), when it has them. */
  argValues?: readonly string[];
}

/** Arguments with a fixed set of values, by name. */
const ARGUMENT_VALUES: Record<string, readonly string[]> = { shell: ['bash', 'zsh', 'fish'] };

/** The options whose values are checked against a fixed set, by flag (and command where they differ). */
function choiceOf(path: readonly string[], long: string): Choice<string> | undefined {
  if (long === '--source')
    return path.join(' ') === 'model fetch' ? MODEL_SOURCE_CHOICE : SOURCE_CHOICE;
  const byFlag: Record<string, Choice<string>> = {
    '--mode': MODE_CHOICE,
    '--role': ROLE_CHOICE,
    '--type': MEMORY_TYPE_CHOICE,
    '--format': FORMAT_CHOICE,
    '--sort': SORT_CHOICE,
  };
  return byFlag[long];
}

function valueOf(path: readonly string[], option: Option): ValueKind | undefined {
  if (!option.required && !option.optional) return undefined;
  const choice = option.long !== undefined ? choiceOf(path, option.long) : undefined;
  if (choice) return choice.values;
  const placeholder = /<([^>]+)>|\[([^\]]+)\]/.exec(option.flags)?.slice(1).find(Boolean) ?? '';
  if (/dir/.test(placeholder)) return 'dir';
  if (/file|path|out/.test(placeholder)) return 'file';
  return 'any';
}

const firstClause = (text: string): string => text.split(/[;(]/)[0]?.trim() ?? '';

function optionsOf(command: Command, path: readonly string[]): CompletionOption[] {
  const options = command.options
    .filter((option) => option.long !== undefined && !option.hidden)
    .map((option): CompletionOption => {
      const value = valueOf(path, option);
      return {
        long: option.long ?? '',
        ...(option.short !== undefined ? { short: option.short } : {}),
        description: firstClause(option.description),
        ...(value !== undefined ? { value } : {}),
      };
    });
  return [...options, { long: '--help', short: '-h', description: 'show the help' }];
}

/** The command tree as completion scripts need it, from commander's own (`__complete` left out). */
export function completionTree(command: Command, path: string[] = []): CompletionCommand {
  const args = command.registeredArguments;
  return {
    path,
    aliases: command.aliases(),
    description: firstClause(command.description()),
    options: optionsOf(command, path),
    subcommands: command.commands
      .filter((sub) => !sub.name().startsWith('__'))
      .map((sub) => completionTree(sub, [...path, sub.name()])),
    ids: /^conversation(-or-message)?-id$/.test(args[0]?.name() ?? ''),
    files: args.some((arg) => /input|path|folder|file/.test(arg.name())),
    ...(args[0] && ARGUMENT_VALUES[args[0].name()]
      ? { argValues: ARGUMENT_VALUES[args[0].name()] }
      : {}),
  };
}

/** Every command of the tree, depth first (the program itself first). */
export function allCommands(tree: CompletionCommand): CompletionCommand[] {
  return [tree, ...tree.subcommands.flatMap(allCommands)];
}
