import { defineConfig } from 'vitest/config';

// CHATGRAPH_TEST_REPORT=<file> adds a JSON report (used by .ci/run for its summary line).
const report = process.env.CHATGRAPH_TEST_REPORT;

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 180_000,
    globalSetup: ['test/support/global-setup.ts'],
    ...(report ? { reporters: ['default', 'json'], outputFile: { json: report } } : {}),
  },
});
