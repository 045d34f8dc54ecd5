import { defineConfig } from 'vitest/config';

// owned-process.test.ts runs the probe alone, without the suite's global setup.
export default defineConfig({
  test: { include: ['test/support/leak-probe.ts'], hookTimeout: 60_000 },
});
