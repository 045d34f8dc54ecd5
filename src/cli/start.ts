import { processIo } from './cli-io.js';
import { takePassphraseFromEnvironment } from './folder-secret.js';
import { runCli } from './run-cli.js';

/** Every command but `--version`: what `main.ts` runs, from the bundle or from tsc's output. */
export async function start(): Promise<void> {
  // Before anything starts a process: none inherits the passphrase.
  takePassphraseFromEnvironment();
  // `chatgraph search x | head` closes the pipe early: that is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(0);
    throw error;
  });
  const io = processIo();
  process.exitCode = await runCli(process.argv, io);
}
