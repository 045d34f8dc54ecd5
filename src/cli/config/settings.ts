import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../usage-error.js';
import type { ConfigFile, ConfigValues } from './config-file.js';

/** One setting a config file may give: its key there, the option it fills, what overrides it. */
export interface Setting {
  /** The key in the file, dotted (`neo4j.uri`). */
  key: string;
  /** The commander attribute it fills (`dataDir` is `--data-dir`). */
  option: string;
  /** The environment variable that wins over the file, when there is one. */
  env?: string;
  /** Only for this command (`serve`); otherwise for every command with the option. */
  command?: string;
  /** Only when a Neo4j server is in force (its user and database go with its address). */
  withNeo4j?: boolean;
  /** Shown as "(set)", never as itself. */
  secret?: boolean;
  /** The value when nothing gives one, in words, for `chatgraph config`. */
  fallback: string;
  read: (values: ConfigValues, path: string) => string | boolean | undefined;
}

/** `~/x` as the home folder's x: a config file is written by hand. */
function expandHome(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
}

const asText = (value: number | undefined): string | undefined =>
  value === undefined ? undefined : String(value);

function passwordOf(values: ConfigValues, path: string): string | undefined {
  const neo4j = values.neo4j;
  if (neo4j?.password !== undefined) return neo4j.password;
  const file = expandHome(neo4j?.['password-file']);
  if (file === undefined) return undefined;
  try {
    return readFileSync(file, 'utf8').replace(/\r?\n$/, '');
  } catch {
    throw new UsageError(`${path}: neo4j.password-file: cannot read ${file}`);
  }
}

/** Every setting, in the order `chatgraph config` shows them. */
export const SETTINGS: readonly Setting[] = [
  {
    key: 'data-dir',
    option: 'dataDir',
    env: 'CHATGRAPH_DATA_DIR',
    fallback: '$XDG_DATA_HOME/chatgraph',
    read: (v) => expandHome(v['data-dir']),
  },
  {
    key: 'neo4j.uri',
    option: 'neo4j',
    env: 'NEO4J_URI',
    fallback: '(none: the embedded store in the data folder)',
    read: (v) => v.neo4j?.uri,
  },
  {
    key: 'neo4j.user',
    option: 'user',
    env: 'NEO4J_USERNAME',
    withNeo4j: true,
    fallback: 'neo4j',
    read: (v) => v.neo4j?.user,
  },
  {
    key: 'neo4j.password',
    option: 'neo4jPassword',
    env: 'NEO4J_PASSWORD',
    withNeo4j: true,
    secret: true,
    fallback: '(none)',
    read: passwordOf,
  },
  {
    key: 'neo4j.database',
    option: 'database',
    env: 'NEO4J_DATABASE',
    withNeo4j: true,
    fallback: '(the server default)',
    read: (v) => v.neo4j?.database,
  },
  {
    key: 'model.name',
    option: 'model',
    fallback: '(the data folder’s, else all-minilm-l6-v2)',
    read: (v) => v.model?.name,
  },
  {
    key: 'model.endpoint',
    option: 'endpoint',
    fallback: '(none: a local model)',
    read: (v) => v.model?.endpoint,
  },
  {
    key: 'serve.host',
    option: 'host',
    command: 'serve',
    fallback: '127.0.0.1',
    read: (v) => v.serve?.host,
  },
  {
    key: 'serve.port',
    option: 'port',
    command: 'serve',
    fallback: '8484',
    read: (v) => asText(v.serve?.port),
  },
  {
    key: 'serve.max-upload',
    option: 'maxUpload',
    command: 'serve',
    fallback: '2048',
    read: (v) => asText(v.serve?.['max-upload']),
  },
  {
    key: 'serve.open',
    option: 'open',
    command: 'serve',
    fallback: 'false',
    read: (v) => v.serve?.open,
  },
  {
    key: 'mcp.http',
    option: 'http',
    command: 'mcp',
    fallback: '(none: stdio)',
    read: (v) => asText(v.mcp?.http),
  },
  {
    key: 'mcp.answer-budget',
    option: 'answerBudget',
    command: 'mcp',
    fallback: '24576 (bytes a tool answer may take)',
    read: (v) => asText(v.mcp?.['answer-budget']),
  },
];

/** Where a setting's value came from. */
export type SettingSource = 'flag' | 'env' | 'file' | 'default';

/** A setting in force. */
export interface SettingInForce {
  key: string;
  value: string | boolean;
  source: SettingSource;
  /** The environment variable or the file, for `env` and `file`. */
  from?: string;
}

/**
 * Each setting's value and where it came from: the flag (`flags`, by option), else the
 * environment, else the file, else the default.
 */
export function settingsInForce(
  flags: Record<string, unknown>,
  file: ConfigFile,
  env: NodeJS.ProcessEnv = process.env,
): SettingInForce[] {
  return SETTINGS.map((setting) => {
    const flag = flags[setting.option];
    if (typeof flag === 'string' || typeof flag === 'boolean')
      return { key: setting.key, value: flag, source: 'flag' };
    const fromEnv = setting.env !== undefined ? env[setting.env] : undefined;
    if (setting.env !== undefined && fromEnv)
      return { key: setting.key, value: fromEnv, source: 'env', from: setting.env };
    const fromFile = setting.read(file.values, file.path);
    if (fromFile !== undefined)
      return { key: setting.key, value: fromFile, source: 'file', from: file.path };
    return { key: setting.key, value: setting.fallback, source: 'default' };
  });
}
