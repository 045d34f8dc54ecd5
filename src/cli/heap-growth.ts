import { setFlagsFromString } from 'node:v8';

/**
 * V8 lets a heap grow to up to four times what it kept live before collecting it again: an
 * import's main thread kept about 25 MB live and grew to 130 MB (docs/performance.md, issue 46).
 * 1.5 times keeps the peak RSS of the 200 MB export at about 240 MB instead of 315 for a few
 * percent more CPU. Read at each collection, so it holds although set after start, and for the
 * worker threads too (V8's flags are the process's). A `node --heap-growing-percent=N` given by
 * hand wins. Set before the CLI's code is compiled: V8's code cache is only taken by a process
 * whose flags are those of the process that wrote it (`src/cli/code-cache.ts`).
 */
export function setHeapGrowth(): void {
  if (!process.execArgv.some((flag) => flag.startsWith('--heap-growing-percent')))
    setFlagsFromString('--heap-growing-percent=50');
}
