import { readFile } from 'node:fs/promises';
import type { Unlock } from '../api/trust.js';
import { UsageError } from './usage-error.js';

/** The options that say how an encrypted folder's key opens (the passphrase is never one). */
export interface SecretOptions {
  passphraseFile?: string;
  identity?: string;
}

export const passphraseFileOption = [
  '--passphrase-file <file>',
  'an encrypted data folder’s passphrase, the file’s first line (else $CHATGRAPH_PASSPHRASE, else asked at the terminal)',
] as const;

export const identityOption = [
  '--identity <file>',
  'open (or encrypt) the data folder with this age identity file (age-keygen’s) instead of a passphrase',
] as const;

// $CHATGRAPH_PASSPHRASE, once taken out of the environment (see takePassphraseFromEnvironment).
let environmentPassphrase: string | undefined;

/**
 * Takes `$CHATGRAPH_PASSPHRASE` out of this process's environment, keeping it in memory, so no
 * process it starts (a search, a query, a browser) inherits it. The CLI calls it first.
 */
export function takePassphraseFromEnvironment(): void {
  const value = process.env.CHATGRAPH_PASSPHRASE;
  if (value !== undefined) environmentPassphrase = value;
  delete process.env.CHATGRAPH_PASSPHRASE;
}

/** Reads a passphrase at the terminal without echoing it. */
function prompt(question: string): Promise<string> {
  const input = process.stdin;
  return new Promise((resolve, reject) => {
    let typed = '';
    process.stderr.write(question);
    input.setRawMode(true);
    input.resume();
    input.setEncoding('utf8');
    const done = (error?: Error): void => {
      input.setRawMode(false);
      input.pause();
      input.off('data', onData);
      process.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onData = (chunk: string): void => {
      for (const char of chunk) {
        if (char === '\r' || char === '\n') {
          done();
          return;
        }
        if (char === '\u0003') {
          done(new UsageError('cancelled'));
          return;
        }
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else typed += char;
      }
    };
    input.on('data', onData);
  });
}

async function passphraseAtTerminal(confirm: boolean): Promise<string> {
  const first = await prompt('passphrase: ');
  if (confirm && (await prompt('the same passphrase again: ')) !== first)
    throw new UsageError('the two passphrases differ');
  return first;
}

function checked(passphrase: string, from: string): Unlock {
  if (passphrase.length === 0) throw new UsageError(`${from} gives an empty passphrase`);
  return { passphrase };
}

/** A file a secret is read from; what stops it said in one line naming the file and the option. */
async function readSecretFile(file: string, option: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'EISDIR'
        ? 'is a folder, not a file'
        : code === 'ENOENT'
          ? 'no such file'
          : code === 'EACCES'
            ? 'cannot be read (permission denied)'
            : `cannot be read (${error instanceof Error ? error.message : String(error)})`;
    throw new UsageError(`${option} ${file}: ${why}`);
  }
}

/**
 * The secret that opens (or, with `confirm`, encrypts) a folder: `--identity`, else
 * `--passphrase-file`, else `$CHATGRAPH_PASSPHRASE`, else a prompt at the terminal (twice when
 * choosing one). Never an argument: it would show in `ps` and the shell's history.
 */
export async function readSecret(options: SecretOptions, confirm = false): Promise<Unlock> {
  if (options.identity !== undefined && options.passphraseFile !== undefined)
    throw new UsageError('give --identity or --passphrase-file, not both');
  if (options.identity !== undefined)
    return { identity: await readSecretFile(options.identity, '--identity') };
  if (options.passphraseFile !== undefined) {
    const text = await readSecretFile(options.passphraseFile, '--passphrase-file');
    return checked(text.split(/\r?\n/)[0] ?? '', `--passphrase-file ${options.passphraseFile}`);
  }
  const env = environmentPassphrase ?? process.env.CHATGRAPH_PASSPHRASE;
  if (env !== undefined) return checked(env, 'CHATGRAPH_PASSPHRASE');
  if (!process.stdin.isTTY)
    throw new UsageError(
      `${confirm ? 'choose a passphrase' : 'the data folder is encrypted: give its passphrase'} in CHATGRAPH_PASSPHRASE, --passphrase-file or at a terminal (or --identity)`,
    );
  return checked(await passphraseAtTerminal(confirm), 'the terminal');
}
