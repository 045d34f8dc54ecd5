import { MEMORY_TYPES } from '../api/memory.js';
import { PROVIDERS } from '../api/sources.js';
import { closest } from './did-you-mean.js';
import { UsageError } from './usage-error.js';

/** An option's fixed set of values, and what one of them is called. */
export interface Choice<T extends string> {
  noun: string;
  plural: string;
  values: readonly T[];
}

/** The sources chatgraph reads. */
export const SOURCE_CHOICE: Choice<string> = {
  noun: 'source',
  plural: 'sources',
  // PAM files keep each conversation's own platform: no conversation has the source `pam`;
  // nor one of a store chatgraph cannot read (Windsurf's).
  values: PROVIDERS.filter(
    (provider) => provider.carriesPlatforms !== true && provider.agent?.unreadable === undefined,
  )
    .map((provider) => provider.source)
    .sort(),
};

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
 * naming the closest value and all of them (`--source chatgtp is not a source (did you mean
 * chatgpt? sources: chatgpt, …)`), a usage error.
 */
export function checkChoice<T extends string>(option: string, value: string, choice: Choice<T>): T {
  const found = choice.values.find((v) => v === value.toLowerCase());
  if (found !== undefined) return found;
  const near = closest(value, choice.values);
  const all = `${choice.plural}: ${choice.values.join(', ')}`;
  throw new UsageError(
    `${option} ${value} is not a ${choice.noun} (${near !== undefined ? `did you mean ${near}? ` : ''}${all})`,
  );
}
