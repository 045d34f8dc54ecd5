import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import { z } from 'zod';
import { UsageError } from '../usage-error.js';

const port = z.number().int().min(0).max(65535);
const text = z.string().min(1);

/** What a config file may hold; names are the flags' (`data-dir` is `--data-dir`). */
const configSchema = z
  .object({
    'data-dir': text,
    neo4j: z
      .object({
        uri: text,
        user: text,
        password: z.string(),
        'password-file': text,
        database: text,
      })
      .partial()
      .strict(),
    model: z.object({ name: text, endpoint: text }).partial().strict(),
    serve: z
      .object({ host: text, port, 'max-upload': z.number().positive(), open: z.boolean() })
      .partial()
      .strict(),
    mcp: z
      .object({ http: port, 'answer-budget': z.number().int().min(4096) })
      .partial()
      .strict(),
  })
  .partial()
  .strict();

/** A config file's settings, checked. */
export type ConfigValues = z.infer<typeof configSchema>;

/** The config file read, or where it would be when there is none. */
export interface ConfigFile {
  path: string;
  /** Whether it exists (and so was read). */
  found: boolean;
  values: ConfigValues;
}

/**
 * Where the config file is: `$CHATGRAPH_CONFIG`, else `config.toml` (or `config.json`) in
 * `$XDG_CONFIG_HOME/chatgraph` (`~/.config/chatgraph`).
 */
export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  if (env.CHATGRAPH_CONFIG) return env.CHATGRAPH_CONFIG;
  const xdg = env.XDG_CONFIG_HOME;
  const folder = join(xdg && xdg.length > 0 ? xdg : join(homedir(), '.config'), 'chatgraph');
  const toml = join(folder, 'config.toml');
  const json = join(folder, 'config.json');
  return !existsSync(toml) && existsSync(json) ? json : toml;
}

/** The config file, parsed and checked: a bad one is one line naming the file and key, exit 2. */
export function readConfigFile(env: NodeJS.ProcessEnv = process.env): ConfigFile {
  const path = configPath(env);
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    // A file named by CHATGRAPH_CONFIG must be there; the usual one is optional.
    if (missing && !env.CHATGRAPH_CONFIG) return { path, found: false, values: {} };
    throw new UsageError(
      `${path}: ${missing ? 'no such file (named by CHATGRAPH_CONFIG)' : String(error)}`,
    );
  }
  const parsed = configSchema.safeParse(parseSource(path, source));
  if (!parsed.success) throw new UsageError(`${path}: ${describeIssue(parsed.error.issues[0])}`);
  return { path, found: true, values: parsed.data };
}

function parseSource(path: string, source: string): unknown {
  try {
    return path.endsWith('.json') ? JSON.parse(source) : parseToml(source);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new UsageError(
      `${path}: not valid ${path.endsWith('.json') ? 'JSON' : 'TOML'} (${message})`,
    );
  }
}

function describeIssue(issue: z.ZodIssue | undefined): string {
  if (issue === undefined) return 'not a chatgraph config';
  const at = issue.path.join('.');
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((key) => (at ? `${at}.${key}` : key));
    return `unknown key ${keys.join(', ')}`;
  }
  return `${at || 'the file'}: ${issue.message.toLowerCase()}`;
}
