import { MEMORY_TYPES } from '../api/memory.js';
import { closest } from './did-you-mean.js';
import { UsageError } from './usage-error.js';

/** An option's fixed set of values, and what one of them is called. */
export interface Choice<T extends string> {
  noun: string;
  plural: string;
  values: readonly T[];
  /** The command that lists the values, named instead of them when they are too many for a line. */
  listedBy?: string;
}

// Beyond this many values an error line names the command that lists them instead: every chat
// platform and coding agent is a source, and thirty of them make an error no one reads.
const LISTED_AT_MOST = 10;

/** Search modes. */
export const MODE_CHOICE: Choice<'keyword' | 'semantic' | 'hybrid'> = {
  noun: 'mode',
  plural: 'modes',
  values: ['keyword', 'semantic', 'hybrid'],
};

/** Message roles. */
export const ROLE_CHOICE: Choice<'user' | 'assistant' | 'tool' | 'system'> = {
  noun: 'role',
  plural: 'roles',
  values: ['user', 'assistant', 'tool', 'system'],
};

/** Memory types. */
export const MEMORY_TYPE_CHOICE: Choice<(typeof MEMORY_TYPES)[number]> = {
  noun: 'memory type',
  plural: 'types',
  values: MEMORY_TYPES,
};

/** Output formats of `--format`. */
export const FORMAT_CHOICE: Choice<'table' | 'json'> = {
  noun: 'format',
  plural: 'formats',
  values: ['table', 'json'],
};

/**
 * The value of an option with a fixed set of values, checked: a wrong one is one sentence
 * naming the closest value and all of them (`--mode hybird is not a mode (did you mean hybrid?
 * modes: keyword, semantic, hybrid)`), or the command that lists them when they are many
 * (`--source chatgtp is not a source (did you mean chatgpt? chatgraph sources lists all 14)`), a
 * usage error.
 */
export function checkChoice<T extends string>(option: string, value: string, choice: Choice<T>): T {
  const found = choice.values.find((v) => v === value.toLowerCase());
  if (found !== undefined) return found;
  const near = closest(value, choice.values);
  const all =
    choice.listedBy !== undefined && choice.values.length > LISTED_AT_MOST
      ? `${choice.listedBy} lists all ${String(choice.values.length)}`
      : `${choice.plural}: ${choice.values.join(', ')}`;
  throw new UsageError(
    `${option} ${value} is not a ${choice.noun} (${near !== undefined ? `did you mean ${near}? ` : ''}${all})`,
  );
}
