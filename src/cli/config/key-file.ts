import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where a signing key lives: `$XDG_CONFIG_HOME/chatgraph/keys/<name>.pem` (`~/.config/...`),
 * with the user's config and never in a data folder, which is the thing one shares.
 */
export function keyFile(name: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(keysFolder(env), `${name}.pem`);
}

/** The folder of the user's signing keys (see {@link keyFile}). */
export function keysFolder(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  const config = xdg && xdg.length > 0 ? xdg : join(homedir(), '.config');
  return join(config, 'chatgraph', 'keys');
}

/** A key name is a file name: letters, digits, `-` and `_`. */
export const KEY_NAME = /^[A-Za-z0-9_-]{1,64}$/;
