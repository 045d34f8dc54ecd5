import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import {
  createSigningKey,
  readSigningKey,
  verifyBundle,
  type VerifyReport,
} from '../../api/trust.js';
import { DataFolder, resolveDataDir } from '../../index.js';
import type { CliIo } from '../cli-io.js';
import { keyFile, KEY_NAME } from '../config/key-file.js';
import { plural } from '../plural.js';
import type { SecretOptions } from '../folder-secret.js';
import { dataDirOption, unlockOf, type DataDirOption } from '../store-options.js';
import { UsageError } from '../usage-error.js';

const keyOption = ['--key <name>', 'the signing key’s name (default: default)', 'default'] as const;

function checkedKeyFile(name: string): string {
  if (!KEY_NAME.test(name))
    throw new UsageError(`--key ${name}: a key name is letters, digits, - and _`);
  return keyFile(name);
}

/** `chatgraph key new`: an Ed25519 key, its private half in the user's config folder. */
export async function runKeyNew(
  options: { key: string; replace?: boolean },
  io: CliIo,
): Promise<void> {
  const file = checkedKeyFile(options.key);
  const key = await createSigningKey(file, { replace: options.replace === true });
  io.out(`made a signing key: ${file} (readable by you alone)`);
  io.out(`public key: ${key.publicKey}`);
  io.out(`key id:     ${key.keyId}`);
}

/** `chatgraph key show`: the public key of a key made before. */
export async function runKeyShow(options: { key: string }, io: CliIo): Promise<void> {
  const file = checkedKeyFile(options.key);
  const key = await readSigningKey(file);
  io.out(`public key: ${key.publicKey}`);
  io.out(`key id:     ${key.keyId}`);
}

/** `chatgraph sign`: the data folder's bundle signed (PAM §18, and chatgraph's manifest). */
export async function runSign(
  options: SecretOptions & DataDirOption & { key: string; json?: boolean },
  io: CliIo,
): Promise<void> {
  const key = await readSigningKey(checkedKeyFile(options.key));
  const folder = await DataFolder.open(resolveDataDir(options.dataDir), {
    unlock: unlockOf(options),
  });
  if (!existsSync(folder.bundle))
    throw new UsageError(`${folder.dir} has no bundle to sign: import something first`);
  const signed = await folder.sign(key);
  if (options.json) {
    io.out(JSON.stringify(signed, null, 2));
    return;
  }
  io.out(
    `signed ${signed.bundle}: ${plural(signed.memories, 'memory', 'memories')} and ${plural(signed.files, 'file')}, by ${signed.publicKey}`,
  );
}

function describe(report: VerifyReport, io: CliIo): void {
  if (report.verdict === 'unsigned') {
    if (report.unsignedSince)
      io.out(
        `${report.bundle}: unsigned since ${report.unsignedSince.writtenAt} (signed at ${report.unsignedSince.signedAt}, then written again: run chatgraph sign)`,
      );
    else io.out(`${report.bundle}: not signed`);
    return;
  }
  for (const problem of report.problems)
    io.err(`${problem.file}${problem.path ? ` ${problem.path}` : ''}: ${problem.message}`);
  const by = report.signer ? ` by ${report.signer.publicKey} at ${report.signer.signedAt}` : '';
  if (report.verdict === 'verified')
    io.out(
      `${report.bundle}: signature verified${by}: ${plural(report.checked.memories, 'memory', 'memories')} and ${plural(report.checked.files, 'file')} unchanged`,
    );
  else
    io.out(`${report.bundle}: signature FAILED${by}: ${plural(report.problems.length, 'problem')}`);
}

/** `chatgraph verify`: exit 0 when verified, 1 when unsigned or anything fails. */
export async function runVerify(
  path: string | undefined,
  options: SecretOptions & DataDirOption & { json?: boolean },
  io: CliIo,
): Promise<void> {
  if (path !== undefined && options.dataDir !== undefined)
    throw new UsageError('give a bundle folder or --data-dir, not both');
  // A bundle folder given is read as it is; the data folder's, through its seal.
  const folder =
    path === undefined
      ? await DataFolder.open(resolveDataDir(options.dataDir), { unlock: unlockOf(options) })
      : undefined;
  const bundle = path ?? folder?.bundle ?? '';
  if (!existsSync(bundle)) throw new UsageError(`${bundle}: no such bundle folder`);
  const report = await (folder ? folder.verify() : verifyBundle(bundle));
  if (options.json) io.out(JSON.stringify(report, null, 2));
  else describe(report, io);
  io.exitCode = report.verdict === 'verified' ? 0 : 1;
}

export function registerKey(program: Command, io: CliIo): void {
  const key = program
    .command('key')
    .description(
      'the Ed25519 key chatgraph sign uses (kept in the config folder, never in a data folder)',
    );
  key
    .command('new')
    .description('make a signing key')
    .option(...keyOption)
    .option('--replace', 'replace a key of that name (what it signed no longer verifies as yours)')
    .action((options: { key: string; replace?: boolean }) => runKeyNew(options, io));
  key
    .command('show')
    .description('print a signing key’s public key and did:key id')
    .option(...keyOption)
    .action((options: { key: string }) => runKeyShow(options, io));
}

export function registerSign(program: Command, io: CliIo): void {
  program
    .command('sign')
    .description('sign the bundle (PAM section 18, and a manifest of every file)')
    .option(...dataDirOption)
    .option(...keyOption)
    .option(
      '--json',
      'print one JSON document: {bundle, exportId, signedAt, publicKey, keyId, files, memories}',
    )
    .action((options: DataDirOption & { key: string; json?: boolean }) => runSign(options, io));
}

export function registerVerify(program: Command, io: CliIo): void {
  program
    .command('verify')
    .description('check a bundle’s signatures: exit 1 when unsigned or anything changed')
    .argument('[bundle]', 'a bundle folder (default: the data folder’s)')
    .option(...dataDirOption)
    .option(
      '--json',
      'print one JSON document: {bundle, verdict (verified, unsigned or failed), signer, unsignedSince, problems: [{file, path, message}], checked}',
    )
    .action((path: string | undefined, options: DataDirOption & { json?: boolean }) =>
      runVerify(path, options, io),
    );
}
