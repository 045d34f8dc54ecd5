import { defineConfig } from 'vitest/config';

// CHATGRAPH_TEST_REPORT=<file> adds a JSON report (used by .ci/run for its summary line).
const report = process.env.CHATGRAPH_TEST_REPORT;
// Two test files at once (CHATGRAPH_TEST_WORKERS=<n> for another number; vitest's own default
// on 2 cores is one): most files spend their time waiting on a CLI child, a browser or Neo4j,
// so one file at a time left a core idle for much of CI's 45 minutes.
const workers = Number(process.env.CHATGRAPH_TEST_WORKERS ?? 2);

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // Each file in a worker thread of its own rather than a forked process: the same isolation
    // (a fresh module graph per file), without a process start per file. Measured on 30 small
    // files, one at a time: 29 s against 39-45 s wall, 13.7 s against 18.5 s of CPU.
    pool: 'threads',
    ...(workers > 0 ? { maxWorkers: workers } : {}),
    // A timeout is for a test that hangs, never a measure of speed: three minutes, as a test
    // that takes 20 s alone can take 60 on CI's slower machine while another file runs.
    testTimeout: 180_000,
    hookTimeout: 180_000,
    globalSetup: ['test/support/global-setup.ts'],
    ...(report ? { reporters: ['default', 'json'], outputFile: { json: report } } : {}),
  },
});
