import { readFileSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';

/** The name of the file that marks a model folder as complete (written last, atomically). */
export const MANIFEST_FILE = 'manifest.json';

const manifestSchema = z.object({
  id: z.string().min(1),
  dimensions: z.number().int().positive(),
  maxTokens: z.number().int().positive(),
  pooling: z.enum(['mean', 'cls']).default('mean'),
  /** Put before every text the model reads. */
  textPrefix: z.string().default(''),
  source: z.string(),
  files: z.array(
    z.object({
      name: z.string().min(1),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      size: z.number(),
    }),
  ),
  checked: z.array(z.string()).default([]),
  fetchedAt: z.string(),
});

/** What a model folder's `manifest.json` says: the model, where it came from, its files. */
export type ModelManifest = z.infer<typeof manifestSchema>;

/** The models folder: the option, `CHATGRAPH_MODEL_DIR`, `$XDG_CACHE_HOME/chatgraph/models`. */
export function resolveModelDir(option?: string): string {
  if (option) return option;
  const env = process.env.CHATGRAPH_MODEL_DIR;
  if (env) return env;
  const xdg = process.env.XDG_CACHE_HOME;
  return join(xdg && xdg.length > 0 ? xdg : join(homedir(), '.cache'), 'chatgraph', 'models');
}

/** The folder of one model id inside the models folder. */
export function modelFolder(modelDir: string, id: string): string {
  return join(modelDir, id);
}

/** The manifest of a model folder, or undefined when there is none (not installed). */
export function readManifest(folder: string): ModelManifest | undefined {
  let text: string;
  try {
    text = readFileSync(join(folder, MANIFEST_FILE), 'utf8');
  } catch {
    return undefined;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success)
    throw new Error(
      `${join(folder, MANIFEST_FILE)} is not a chatgraph model manifest (${parsed.error.issues[0]?.message ?? 'bad shape'}): run chatgraph model fetch again`,
    );
  return parsed.data;
}

/** An installed model: its manifest, folder and size on disk. */
export interface InstalledModel {
  manifest: ModelManifest;
  folder: string;
  bytes: number;
}

/** The models installed in a models folder (those with a manifest), sorted by id. */
export function listInstalledModels(modelDir: string): InstalledModel[] {
  let names: string[];
  try {
    names = readdirSync(modelDir);
  } catch {
    return [];
  }
  const installed: InstalledModel[] = [];
  for (const name of names.sort()) {
    const folder = join(modelDir, name);
    const manifest = readManifest(folder);
    if (!manifest) continue;
    let bytes = 0;
    for (const file of readdirSync(folder)) bytes += statSync(join(folder, file)).size;
    installed.push({ manifest, folder, bytes });
  }
  return installed;
}
