import { ModelNotInstalledError } from '../embed/embed-errors.js';
import { DEFAULT_MODEL, MODEL_CATALOG } from '../embed/model-catalog.js';
import { resolveLocalModel } from '../embed/open-embedder.js';
import { fix, ok, type DoctorCheck } from './check.js';

/** What the model check is told: the model in force and where models live. */
export interface ModelCheckOptions {
  /** The model named (`--model`, the config file); else the index's, else the default. */
  model?: string | undefined;
  /** Embedding goes through an endpoint: no local model to check. */
  endpoint?: string | undefined;
  modelDir?: string | undefined;
  /** The model the store's vectors were made with. */
  indexed: string | undefined;
  /** Appended to the store commands it suggests. */
  flags: string;
}

const known = (id: string): boolean =>
  MODEL_CATALOG.some((m) => m.name === id || m.sources.some((s) => s.id === id));

/**
 * The model in force is installed (its files match their checksums) and is the one the
 * vectors were made with; otherwise the command that fetches it, or that embeds again.
 */
export async function modelCheck(options: ModelCheckOptions): Promise<DoctorCheck[]> {
  if (options.endpoint !== undefined)
    return [ok('model', `embedding through ${options.endpoint} (no local model to check)`)];
  const wanted = options.model ?? options.indexed ?? DEFAULT_MODEL;
  const checks: DoctorCheck[] = [];
  let installedId: string | undefined;
  try {
    const spec = await resolveLocalModel({
      model: wanted,
      ...(options.modelDir !== undefined ? { modelDir: options.modelDir } : {}),
    });
    installedId = spec.info.id;
    checks.push(ok('model', `${installedId} installed, its files match their checksums`));
  } catch (error) {
    if (!(error instanceof ModelNotInstalledError)) throw error;
    const command = known(wanted)
      ? `chatgraph model fetch${wanted === DEFAULT_MODEL ? '' : ` --model ${wanted}`}`
      : `chatgraph embed --model ${DEFAULT_MODEL}${options.flags}`;
    checks.push(fix('model', error.message.replace(/: run .*$/, ''), command));
  }
  const indexed = options.indexed;
  const same = indexed === undefined || indexed === wanted || indexed === installedId;
  if (!same)
    checks.push(
      fix(
        'model',
        `the vectors were made with ${indexed}, not ${wanted} (the model in force): searches by meaning fail until they match`,
        `chatgraph embed --model ${wanted}${options.flags}`,
      ),
    );
  else if (indexed !== undefined && installedId !== undefined)
    checks.push(ok('model', `the vectors were made with ${indexed}`));
  return checks;
}
