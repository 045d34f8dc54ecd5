import type { Command } from 'commander';
import type { ConvertReport } from '../../api/trust.js';
import { DataFolder, resolveDataDir } from '../../index.js';
import type { CliIo } from '../cli-io.js';
import {
  identityOption,
  passphraseFileOption,
  readSecret,
  type SecretOptions,
} from '../folder-secret.js';
import { plural } from '../plural.js';
import { dataDirOption, type DataDirOption } from '../store-options.js';

type Options = SecretOptions & DataDirOption;

function said(verb: string, folder: DataFolder, report: ConvertReport): string {
  const sqlite = report.sqlite.length > 0 ? ` and ${report.sqlite.join(', ')}` : '';
  const left = report.leftAsTheyAre ?? [];
  const strays =
    left.length > 0
      ? `; left as ${left.length === 1 ? 'it was' : 'they were'} (never encrypted, not the folder's): ${left.slice(0, 5).join(', ')}${left.length > 5 ? ` and ${String(left.length - 5)} more` : ''}`
      : '';
  return `${verb} ${folder.dir}: ${plural(report.files, 'file')}${sqlite}${strays}`;
}

/** `chatgraph encrypt`: the data folder encrypted at rest (age files, a SQLCipher index). */
export async function runEncrypt(options: Options, io: CliIo): Promise<void> {
  const folder = await DataFolder.open(resolveDataDir(options.dataDir));
  const report = await folder.encrypt(await readSecret(options, true));
  io.out(said('encrypted', folder, report));
}

/** `chatgraph decrypt`: the data folder back to its plain form. */
export async function runDecrypt(options: Options, io: CliIo): Promise<void> {
  const folder = await DataFolder.open(resolveDataDir(options.dataDir));
  const report = await folder.decrypt(await readSecret(options));
  io.out(said('decrypted', folder, report));
}

export function registerEncrypt(program: Command, io: CliIo): void {
  program
    .command('encrypt')
    .description(
      'encrypt the data folder at rest: the bundle’s files with age, the index with SQLCipher (see docs/encryption.md)',
    )
    .option(...dataDirOption)
    .option(...passphraseFileOption)
    .option(...identityOption)
    .action((options: Options) => runEncrypt(options, io));
  program
    .command('decrypt')
    .description('decrypt an encrypted data folder back to plain files')
    .option(...dataDirOption)
    .option(...passphraseFileOption)
    .option(...identityOption)
    .action((options: Options) => runDecrypt(options, io));
}
