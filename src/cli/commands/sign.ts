import { existsSync, readdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import {
  createSigningKey,
  readSigningKey,
  verifyBundle,
  type VerifyReport,
} from '../../api/trust.js';
import { DataFolder, resolveDataDir } from '../../index.js';
import type { CliIo } from '../cli-io.js';
import { keyFile, keysFolder, KEY_NAME } from '../config/key-file.js';
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
  else if (report.verdict === 'untrusted')
    io.out(
      `${report.bundle}: signed by a key you do not trust${by}: the signatures hold, but anyone can sign an edited bundle with a key of their own (trust one with --key or --trusted-keys)`,
    );
  else
    io.out(`${report.bundle}: signature FAILED${by}: ${plural(report.problems.length, 'problem')}`);
}

// A public key as `key show` prints it, or its did:key URL.
const PUBLIC_KEY = /^(did:key:)?z6Mk[1-9A-HJ-NP-Za-km-z]+(#z6Mk[1-9A-HJ-NP-Za-km-z]+)?$/;

/** A `--key` of verify: a public key, or the name of one of your signing keys. */
async function trustedKey(given: string): Promise<string> {
  if (PUBLIC_KEY.test(given)) return given;
  if (!KEY_NAME.test(given))
    throw new UsageError(
      `--key ${given}: not a public key (z6Mk… or did:key:z6Mk…) nor the name of a signing key`,
    );
  return (await readSigningKey(keyFile(given))).publicKey;
}

/** A `--trusted-keys` file: a public key a line; `#` starts a comment. */
async function trustedKeysFile(file: string): Promise<string[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `--trusted-keys ${file}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(error)}`,
    );
  }
  const keys: string[] = [];
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.replace(/#(?!z6Mk).*$/, '').trim();
    if (line === '') continue;
    if (!PUBLIC_KEY.test(line))
      throw new UsageError(
        `--trusted-keys ${file}, line ${String(i + 1)}: not a public key (z6Mk… or did:key:z6Mk…)`,
      );
    keys.push(line);
  }
  return keys;
}

/** Your own signing keys' public halves: whom verify trusts when told no one. */
async function ownKeys(): Promise<string[]> {
  const folder = keysFolder();
  const names = existsSync(folder)
    ? readdirSync(folder)
        .filter((f) => f.endsWith('.pem') && KEY_NAME.test(f.slice(0, -'.pem'.length)))
        .sort()
    : [];
  const keys: string[] = [];
  // A key file that does not read is no key to trust (key show names what is wrong with it).
  for (const name of names)
    await readSigningKey(join(folder, name)).then(
      (key) => keys.push(key.publicKey),
      () => undefined,
    );
  return keys;
}

/** The keys `verify` trusts: those given, else your own. */
async function keysToTrust(options: { key?: string[]; trustedKeys?: string }): Promise<string[]> {
  const given = [
    ...(await Promise.all((options.key ?? []).map(trustedKey))),
    ...(options.trustedKeys !== undefined ? await trustedKeysFile(options.trustedKeys) : []),
  ];
  return options.key !== undefined || options.trustedKeys !== undefined ? given : ownKeys();
}

/** `chatgraph verify`: exit 0 when verified, 1 when unsigned or anything fails. */
export async function runVerify(
  path: string | undefined,
  options: SecretOptions & DataDirOption & { json?: boolean; key?: string[]; trustedKeys?: string },
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
  const trust = await keysToTrust(options);
  const report = await (folder ? folder.verify({ trust }) : verifyBundle(bundle, { trust }));
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
      '--key <key...>',
      'trust this signer: a public key (z6Mk…, did:key:…) or the name of your signing key (default: all your signing keys)',
    )
    .option('--trusted-keys <file>', 'trust the public keys in this file, one a line')
    .option(
      '--json',
      'print one JSON document: {bundle, verdict (verified, untrusted, unsigned or failed), signer (with trusted), unsignedSince, problems: [{file, path, message}], checked}',
    )
    .action(
      (
        path: string | undefined,
        options: DataDirOption & { json?: boolean; key?: string[]; trustedKeys?: string },
      ) => runVerify(path, options, io),
    );
}
