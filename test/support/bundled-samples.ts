import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { CLI } from './run-cli.js';
import { ROOT } from './shared.js';

/** The three bundled samples, as the README's first command imports them. */
export const SAMPLE_INPUTS = ['chatgpt-export.zip', 'claude-export.zip', 'claude-code'].map(
  (name) => join(ROOT, 'samples', name),
);

/** Imports the bundled samples into `data` with the built CLI. */
export function importSamples(data: string): void {
  execFileSync(process.execPath, [CLI, 'import', ...SAMPLE_INPUTS, '--data-dir', data, '-q']);
}
