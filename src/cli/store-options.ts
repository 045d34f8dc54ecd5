import type { Command } from 'commander';
import type { Unlock } from '../api/trust.js';
import {
  DataFolder,
  neo4jTarget,
  resolveDataDir,
  type DataFolderOptions,
  type LockHolder,
  type Neo4jTarget,
  type StoreReader,
} from '../index.js';
import { FORMAT_CHOICE, checkChoice } from './choices.js';
import {
  identityOption,
  passphraseFileOption,
  readSecret,
  type SecretOptions,
} from './folder-secret.js';
import { UsageError } from './usage-error.js';

/** The option every command over a data folder takes: `--data-dir`, resolved by `resolveDataDir`. */
export interface DataDirOption {
  dataDir?: string;
}

/** The options every store command takes. */
export interface StoreOptions extends DataDirOption {
  neo4j?: string;
  user?: string;
  database?: string;
  /** The Neo4j password from the config file (there is no flag: it would show in `ps`). */
  neo4jPassword?: string;
}

export const dataDirOption = [
  '--data-dir <dir>',
  'the data folder (default: $CHATGRAPH_DATA_DIR, the config file’s data-dir, or $XDG_DATA_HOME/chatgraph)',
] as const;

/** Adds the store options: the data folder, or a Neo4j server. */
export function withStoreOptions(command: Command): Command {
  return command
    .option(...dataDirOption)
    .option(...passphraseFileOption)
    .option(...identityOption)
    .option(
      '--neo4j <url>',
      'use this Neo4j 5 server instead of the embedded store: bolt://host:7687, neo4j+s://… for Aura (default: $NEO4J_URI)',
    )
    .option(
      '--user <name>',
      'the Neo4j user (default: $NEO4J_USERNAME or neo4j); the password is read from $NEO4J_PASSWORD or the config file, never a flag',
    )
    .option(
      '--database <name>',
      'the Neo4j database (default: $NEO4J_DATABASE or the server default)',
    );
}

export function neo4jOf(options: StoreOptions): Neo4jTarget | undefined {
  if (options.neo4j === undefined && (options.user !== undefined || options.database !== undefined))
    throw new UsageError('--user and --database go with --neo4j <url> (or NEO4J_URI)');
  return neo4jTarget({
    url: options.neo4j,
    user: options.user,
    database: options.database,
    password: options.neo4jPassword,
  });
}

// The secret a command's options give, read once however many folders it opens (`serve
// --watch` opens two handles on one folder: one prompt).
const secrets = new WeakMap<SecretOptions, Promise<Unlock>>();

/**
 * How the command asks for an encrypted folder's secret, when the folder's key is first
 * needed (a plain folder asks nothing): `--identity`, `--passphrase-file`,
 * `$CHATGRAPH_PASSPHRASE`, or a prompt (see readSecret).
 */
export function unlockOf(options: SecretOptions): () => Promise<Unlock> {
  return () => {
    let secret = secrets.get(options);
    if (!secret) {
      secret = readSecret(options);
      secrets.set(options, secret);
      // A refused secret (cancelled, empty) is not kept: the next open asks again.
      secret.catch(() => secrets.delete(options));
    }
    return secret;
  };
}

/** What opening the chosen data folder takes: its store (embedded, or Neo4j) and its secret. */
export function folderOptions(
  options: StoreOptions & SecretOptions,
): Pick<DataFolderOptions, 'neo4j' | 'unlock'> {
  return { neo4j: neo4jOf(options), unlock: unlockOf(options) };
}

/** Opens the chosen data folder (its embedded store, or Neo4j) to change it. */
export function openForWriting(
  options: StoreOptions & SecretOptions,
  more: { onWait?: (holder: LockHolder) => void } = {},
): Promise<DataFolder> {
  return DataFolder.open(resolveDataDir(options.dataDir), {
    ...folderOptions(options),
    ...(more.onWait ? { wait: { onWait: more.onWait } } : {}),
  });
}

/** Opens the chosen data folder for reading: its store (it must exist), or Neo4j. */
export function openForReading(
  options: StoreOptions & SecretOptions,
  more: Pick<DataFolderOptions, 'searchHere'> = {},
): Promise<DataFolder> {
  return DataFolder.open(resolveDataDir(options.dataDir), {
    ...folderOptions(options),
    ...more,
    readonly: true,
  });
}

/** Runs `use` over the folder opened for reading (and its reader), and closes it. */
export async function withReader<T>(
  options: StoreOptions & SecretOptions,
  use: (reader: StoreReader, folder: DataFolder) => Promise<T>,
  more: Pick<DataFolderOptions, 'searchHere'> = {},
): Promise<T> {
  const folder = await openForReading(options, more);
  try {
    return await use(await folder.reader(), folder);
  } finally {
    await folder.close();
  }
}

export type Format = 'table' | 'json';

/** The `--format` option's value, checked; `--json` is `--format json`. */
export function checkFormat(format: string, json?: boolean): Format {
  const checked = checkChoice('--format', format, FORMAT_CHOICE);
  return json === true ? 'json' : checked;
}

/** Adds `--json` and its older spelling `--format table|json`. */
export function withFormatOptions(command: Command, shape: string): Command {
  return command
    .option('--json', `print one JSON document: ${shape}`)
    .option('--format <format>', 'table or json (--json is --format json)', 'table');
}

/** A port option's value, checked. */
export function checkPort(value: string, option: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`${option} takes a port number, not "${value}"`);
  return port;
}
