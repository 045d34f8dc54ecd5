#!/usr/bin/env node
import { packageVersion } from './package-version.js';

const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Answered before the rest of chatgraph (or commander) is loaded: a cold start is most of it.
  process.stdout.write(`${packageVersion()}\n`);
} else {
  const [{ processIo }, { takePassphraseFromEnvironment }, { runCli }] = await Promise.all([
    import('./cli-io.js'),
    import('./folder-secret.js'),
    import('./run-cli.js'),
  ]);
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
