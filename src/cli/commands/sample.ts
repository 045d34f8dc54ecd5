import type { Command } from 'commander';
import { writeSamples } from '../../api/sources.js';
import type { CliIo } from '../cli-io.js';

/** `chatgraph sample`: small sample exports to try chatgraph on. */
export async function runSample(
  options: { out: string; json?: boolean },
  io: CliIo,
): Promise<void> {
  const files = await writeSamples(options.out);
  io.out(options.json ? JSON.stringify({ files }, null, 2) : files.join('\n'));
}

export function registerSample(program: Command, io: CliIo): void {
  program
    .command('sample')
    .description('write small sample exports (ChatGPT, Claude.ai, Claude Code) to try chatgraph on')
    .option('-o, --out <dir>', 'where to write them', 'samples')
    .option('--json', 'print one JSON document: {files: [path]}')
    .action((options: { out: string; json?: boolean }) => runSample(options, io));
}
