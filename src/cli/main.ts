#!/usr/bin/env node
import { runCommonJsBundle } from './code-cache.js';
import { setHeapGrowth } from './heap-growth.js';
import { mapStacksWhenShown } from './mapped-stacks.js';
import { packageVersion } from './package-version.js';

/**
 * The CLI's code as one CommonJS-shaped file beside this one, named by `scripts/bundle.mjs`
 * (`define`); undefined where this file runs as tsc compiled it (the CLI is then `start.js`).
 */
declare const CHATGRAPH_CLI_BUNDLE: string | undefined;

// The shipped CLI is a bundle (scripts/bundle.mjs): its stack traces name our src/…ts files
// through the source maps beside it, read when a stack is written (not as each chunk loads).
mapStacksWhenShown(new URL('..', import.meta.url).href);
const args = process.argv.slice(2);
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  // Answered before the rest of chatgraph (or commander) is loaded: a cold start is most of it.
  process.stdout.write(`${packageVersion()}\n`);
} else {
  setHeapGrowth();
  const bundle = typeof CHATGRAPH_CLI_BUNDLE === 'string' ? CHATGRAPH_CLI_BUNDLE : undefined;
  // No top-level await: the shipped file is CommonJS (`bin`: dist/cli/main.cjs), which Node
  // starts without its ES module loader. A failure is an unhandled rejection, as it was.
  void (
    bundle === undefined
      ? import('./start.js')
      : Promise.resolve(runCommonJsBundle(new URL(bundle, import.meta.url).href, args[0] ?? ''))
  ).then((loaded) => (loaded as { start: () => Promise<void> }).start());
}
