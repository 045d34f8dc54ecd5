#!/usr/bin/env node
import { mapStacksWhenShown } from './mapped-stacks.js';
import { packageVersion } from './package-version.js';

// The shipped CLI is a bundle (scripts/bundle.mjs): its stack traces name our src/…ts files
// through the source maps beside it, read when a stack is written (not as each chunk loads).
mapStacksWhenShown(new URL('..', import.meta.url).href);
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Answered before the rest of chatgraph (or commander) is loaded: a cold start is most of it.
  process.stdout.write(`${packageVersion()}\n`);
} else {
  // node:v8 loaded here, not at the top: `--version` loads nothing it does not need.
  const [{ setFlagsFromString }, { processIo }, { takePassphraseFromEnvironment }, { runCli }] =
    await Promise.all([
      import('node:v8'),
      import('./cli-io.js'),
      import('./folder-secret.js'),
      import('./run-cli.js'),
    ]);
  // V8 lets a heap grow to up to four times what it kept live before collecting it again: an
  // import's main thread kept about 25 MB live and grew to 130 MB (docs/performance.md, issue 46).
  // 1.5 times keeps the peak RSS of the 200 MB export at about 240 MB instead of 315 for a few
  // percent more CPU. Read at each collection, so it holds although set after start, and for
  // the worker threads too (V8's flags are the process's). A `node --heap-growing-percent=N`
  // given by hand wins.
  if (!process.execArgv.some((flag) => flag.startsWith('--heap-growing-percent')))
    setFlagsFromString('--heap-growing-percent=50');
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
