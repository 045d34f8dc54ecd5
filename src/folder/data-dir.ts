import { homedir } from 'node:os';
import { join } from 'node:path';

/** The data folder: the option, then `CHATGRAPH_DATA_DIR`, then `$XDG_DATA_HOME/chatgraph`. */
export function resolveDataDir(option?: string): string {
  if (option) return option;
  const env = process.env.CHATGRAPH_DATA_DIR;
  if (env) return env;
  const xdg = process.env.XDG_DATA_HOME;
  return join(xdg && xdg.length > 0 ? xdg : join(homedir(), '.local', 'share'), 'chatgraph');
}
