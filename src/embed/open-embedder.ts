import { channel } from 'node:diagnostics_channel';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { z } from 'zod';
import { ModelNotInstalledError } from './embed-errors.js';
import type { Embedder } from './embedder.js';
import { openEndpointEmbedder } from './endpoint-embedder.js';
import type { LocalModelSpec } from './local-embedder.js';
import { DEFAULT_MODEL, MODEL_CATALOG } from './model-catalog.js';
import { modelFolder, readManifest, resolveModelDir, type ModelManifest } from './model-folder.js';
import { stamp, stampedAs } from './model-stamp.js';
import { sha256File } from './sha256-file.js';
import { notRegularKind } from '../read/regular-file.js';

/** How to embed: a local model (the default), or an OpenAI-compatible endpoint. */
export interface OpenEmbedderOptions {
  /** A catalog name or id, a folder holding model.onnx + tokenizer.json, or the endpoint's model. */
  model?: string;
  /** An OpenAI-compatible base URL (e.g. `http://127.0.0.1:11434` for Ollama). */
  endpoint?: string;
  /** Let texts go to a host that is not this machine. */
  allowRemote?: boolean;
  /** Mask secrets in texts before they are sent to an endpoint. */
  redact?: boolean;
  modelDir?: string;
  /** Embedding workers of a local model, a session and a core each (see `LocalRunOptions`). */
  workers?: number;
  onWarning?: (message: string) => void;
}

/**
 * Told of every local model opened (its name as asked), so a check can see which commands pay
 * for one: a search by words must not (`test/keyword-search-loads.test.ts`).
 */
export const MODEL_OPEN_CHANNEL = 'chatgraph:model-open';
const modelOpens = channel(MODEL_OPEN_CHANNEL);

/** Opens the embedder the options name: a local model unless an endpoint is given. */
export async function openEmbedder(options: OpenEmbedderOptions = {}): Promise<Embedder> {
  if (options.endpoint !== undefined)
    return openEndpointEmbedder({
      endpoint: options.endpoint,
      ...(options.model !== undefined ? { model: options.model } : {}),
      allowRemote: options.allowRemote === true,
      redact: options.redact === true,
      ...(options.onWarning ? { onWarning: options.onWarning } : {}),
    });
  modelOpens.publish({ model: options.model ?? DEFAULT_MODEL });
  // The ONNX runtime is loaded when a model is opened, not when chatgraph is imported.
  const { openLocalEmbedder } = await import('./local-embedder.js');
  return openLocalEmbedder(
    await resolveLocalModel(options),
    options.workers !== undefined ? { workers: options.workers } : {},
  );
}

function looksLikeFolder(model: string): boolean {
  return isAbsolute(model) || /^[.~]/.test(model) || model.includes('/') || model.includes('\\');
}

const folderConfigSchema = z.object({
  id: z.string().min(1).optional(),
  dimensions: z.number().int().positive().optional(),
  maxTokens: z.number().int().positive().optional(),
  pooling: z.enum(['mean', 'cls']).optional(),
});

/**
 * Finds the local model the options name, checks its files against its manifest, and says how
 * to load it; a missing or damaged model is a {@link ModelNotInstalledError}.
 */
export async function resolveLocalModel(
  options: Pick<OpenEmbedderOptions, 'model' | 'modelDir'>,
): Promise<LocalModelSpec> {
  const name = options.model ?? DEFAULT_MODEL;
  if (looksLikeFolder(name) || (existsSync(name) && statSync(name).isDirectory()))
    return folderModel(resolve(name));
  const modelDir = resolveModelDir(options.modelDir);
  const key = name.toLowerCase();
  const entry = MODEL_CATALOG.find(
    (model) => model.name === key || model.sources.some((source) => source.id === key),
  );
  const install = `chatgraph model fetch${name === DEFAULT_MODEL ? '' : ` --model ${name}`}`;
  if (!entry)
    throw new ModelNotInstalledError(
      `unknown model "${name}": chatgraph model list shows the known ones (or give a folder holding model.onnx and tokenizer.json)`,
    );
  // The catalog name stands for whichever of its sources is installed, its own id first.
  const ids =
    key !== entry.name
      ? [key]
      : entry.sources
          .map((source) => source.id)
          .sort((a, b) => Number(b === key) - Number(a === key));
  for (const id of ids) {
    const folder = modelFolder(modelDir, id);
    const manifest = readManifest(folder);
    if (manifest) return verified(folder, manifest, install);
  }
  throw new ModelNotInstalledError(`model ${name} is not installed in ${modelDir}: run ${install}`);
}

async function verified(
  folder: string,
  manifest: ModelManifest,
  install: string,
): Promise<LocalModelSpec> {
  const hashed: { name: string; sha256: string }[] = [];
  for (const file of manifest.files) {
    const path = join(folder, file.name);
    refuseIrregular(path);
    // Hashed once, then known by its identity (size, times, inode: see model-stamp.ts).
    if (existsSync(path) && stampedAs(folder, file.name, file.sha256)) continue;
    const actual = existsSync(path) ? await sha256File(path) : 'missing';
    if (actual !== file.sha256)
      throw new ModelNotInstalledError(
        `model ${manifest.id} is damaged (${path} does not match its sha256 ${file.sha256}): run ${install} --force`,
      );
    hashed.push(file);
  }
  if (hashed.length > 0) await stamp(folder, manifest.files);
  return {
    folder,
    pooling: manifest.pooling,
    ...(manifest.textPrefix ? { textPrefix: manifest.textPrefix } : {}),
    info: {
      id: manifest.id,
      dimensions: manifest.dimensions,
      maxTokens: manifest.maxTokens,
      source: manifest.source,
    },
  };
}

/** A folder given by path: its manifest when chatgraph fetched it, else its own description. */
async function folderModel(folder: string): Promise<LocalModelSpec> {
  for (const file of ['model.onnx', 'tokenizer.json'])
    if (!existsSync(join(folder, file)))
      throw new ModelNotInstalledError(
        `${folder} holds no ${file}: a model folder needs model.onnx and tokenizer.json (or run chatgraph model fetch)`,
      );
  for (const file of [
    'model.onnx',
    'tokenizer.json',
    'tokenizer_config.json',
    'chatgraph-model.json',
  ])
    refuseIrregular(join(folder, file));
  const manifest = readManifest(folder);
  if (manifest) return verified(folder, manifest, 'chatgraph model fetch');
  const config = readConfig(join(folder, 'chatgraph-model.json'));
  const hash = (await sha256File(join(folder, 'model.onnx'))).slice(0, 16);
  return {
    folder,
    pooling: config.pooling ?? 'mean',
    info: {
      // Named after the weights, so two folders with the same model share vectors and no two
      // different models ever do.
      id: config.id ?? `local:${basename(folder)}-${hash}`,
      dimensions: config.dimensions ?? 0,
      maxTokens: config.maxTokens ?? tokenizerMaxLength(join(folder, 'tokenizer.json')) ?? 512,
      source: `dir:${folder}`,
    },
  };
}

/** Refuses a model file that is a FIFO, a device or a folder: reading one would hang or fail late. */
function refuseIrregular(path: string): void {
  const kind = notRegularKind(path);
  if (kind !== undefined)
    throw new ModelNotInstalledError(
      `${path} is ${kind}, not a file: a model's files must be regular files`,
    );
}

function readConfig(path: string): z.infer<typeof folderConfigSchema> {
  if (!existsSync(path)) return {};
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    json = undefined;
  }
  const parsed = folderConfigSchema.safeParse(json);
  if (!parsed.success)
    throw new ModelNotInstalledError(
      `${path} is not a chatgraph model description (expected {id?, dimensions?, maxTokens?, pooling?: "mean"|"cls"})`,
    );
  return parsed.data;
}

const tokenizerTruncation = z.object({
  truncation: z.object({ max_length: z.number().int().positive() }).nullable().optional(),
});

function tokenizerMaxLength(path: string): number | undefined {
  try {
    const parsed = tokenizerTruncation.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? (parsed.data.truncation?.max_length ?? undefined) : undefined;
  } catch {
    return undefined;
  }
}
