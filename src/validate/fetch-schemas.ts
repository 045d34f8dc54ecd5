import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { WheelFile } from '../embed/model-catalog.js';
import { fetchPypiFile } from '../embed/pypi-source.js';

/** The PAM version whose official JSON Schemas `validate --fetch-schemas` fetches. */
export const PAM_SCHEMAS_VERSION = '1.0.0';

/**
 * The official PAM JSON Schemas as the official PyPI package `portable-ai-memory` 1.0.0 ships
 * them: the wheel's sha256 (as PyPI lists it) and each schema's own sha256 and size (as the
 * wheel's RECORD gives them), pinned. A file that differs is refused, never used.
 */
export const PAM_SCHEMA_PINS: readonly WheelFile[] = [
  [
    'portable-ai-memory.schema.json',
    '8d1273c4a55f472128a11c4713af7ef1cd474e2f780001d5b96870c8c38d3b9e',
    29_626,
  ],
  [
    'portable-ai-memory-conversation.schema.json',
    'c6c22298f0c7e88f3e1bb722f95f59b89faa587a522006852b0687cf4c2f5446',
    17_718,
  ],
  [
    'portable-ai-memory-embeddings.schema.json',
    'b9378fbcad768a2e638c40c5c6c756d7ef495631be32e149bfee222a792e0fd3',
    3_823,
  ],
].map(([file, sha256, size]) => ({
  file: String(file),
  package: 'portable-ai-memory',
  version: PAM_SCHEMAS_VERSION,
  wheel: `portable_ai_memory-${PAM_SCHEMAS_VERSION}-py3-none-any.whl`,
  wheelSha256: 'dbdb1cb4235f59943aa15b69603b962f39cabd5d40bcc196f0f885c9e4071f19',
  member: `portable_ai_memory/schemas/${String(file)}`,
  sha256: String(sha256),
  size: Number(size),
}));

/** Where fetched schemas are kept: `$XDG_CACHE_HOME` (or `~/.cache`)`/chatgraph/pam-schemas/<version>`. */
export function fetchedSchemaDir(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CACHE_HOME;
  return join(
    xdg !== undefined && xdg !== '' ? xdg : join(homedir(), '.cache'),
    'chatgraph',
    'pam-schemas',
    PAM_SCHEMAS_VERSION,
  );
}

/** The official schemas could not be fetched (no network, a checksum that differs): why, in one line. */
export class SchemaFetchError extends Error {
  override readonly name = 'SchemaFetchError';
}

/** Options of {@link fetchPamSchemas}. */
export interface FetchSchemasOptions {
  /** Where to keep them (default {@link fetchedSchemaDir}). */
  dir?: string;
  /** Another PyPI index (tests serve their own). */
  index?: string;
  /** Other pins (tests pin their own wheel). */
  pins?: readonly WheelFile[];
  signal?: AbortSignal;
}

/** What a fetch of the schemas did. */
export interface FetchSchemasResult {
  dir: string;
  /** They were there already, each with its pinned sha256. */
  alreadyThere: boolean;
  checks: string[];
}

const sha256Of = (path: string): string =>
  createHash('sha256').update(readFileSync(path)).digest('hex');

/**
 * The official PAM JSON Schemas fetched from PyPI into `dir`, each checked against its pins
 * (the wheel listed with its sha256, each schema's own sha256), and moved into place only when
 * all three are right. Nothing is fetched when `dir` holds them already.
 */
export async function fetchPamSchemas(
  options: FetchSchemasOptions = {},
): Promise<FetchSchemasResult> {
  const dir = options.dir ?? fetchedSchemaDir();
  const pins = options.pins ?? PAM_SCHEMA_PINS;
  const there = (file: WheelFile): boolean =>
    existsSync(join(dir, file.file)) && sha256Of(join(dir, file.file)) === file.sha256;
  if (pins.every(there))
    return {
      dir,
      alreadyThere: true,
      checks: pins.map((file) => `${file.file} sha256 ${file.sha256}`),
    };
  await mkdir(dirname(dir), { recursive: true });
  const staging = await mkdtemp(`${dir}.part-`);
  try {
    const checks: string[] = [];
    for (const file of pins)
      for (const check of await fetchPypiFile(file, join(staging, file.file), {
        ...(options.index !== undefined ? { index: options.index } : {}),
        signal: options.signal ?? new AbortController().signal,
      }))
        if (!checks.includes(check)) checks.push(check);
    await rm(dir, { recursive: true, force: true });
    await rename(staging, dir);
    return { dir, alreadyThere: false, checks };
  } catch (error) {
    throw new SchemaFetchError(
      `could not fetch the official PAM JSON Schemas: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
