import type { Command } from 'commander';
import { PROVIDERS } from '../../api/sources.js';
import type { CliIo } from '../cli-io.js';

/** `chatgraph sources`: the exports chatgraph reads, and how to get each. */
export function runSources(io: CliIo, json = false): void {
  if (json) {
    io.out(
      JSON.stringify(
        PROVIDERS.map((p) => ({
          source: p.source,
          product: p.product,
          howToExport: p.howToExport,
        })),
        null,
        2,
      ),
    );
    return;
  }
  for (const provider of PROVIDERS)
    io.out(`${provider.source.padEnd(12)} ${provider.product}: ${provider.howToExport}`);
}

export function registerSources(program: Command, io: CliIo): void {
  program
    .command('sources')
    .description('list the exports chatgraph reads, and how to get each')
    .option('--json', 'print one JSON document: [{source, product, howToExport}]')
    .action((options: { json?: boolean }) => {
      runSources(io, options.json === true);
    });
}
