import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, it } from 'vitest';
import { cleanUp } from './clean-up.js';
import { startServe } from './serve-cli.js';

// Run by owned-process.test.ts in a vitest of its own: a beforeAll that fails after starting a
// server, as a browser that does not launch does.
const out = process.env.CHATGRAPH_LEAK_PROBE ?? '';

let browser: Browser;

function launchNot(): Promise<Browser> {
  return Promise.reject(new Error('the browser did not launch'));
}

beforeAll(async () => {
  const { server } = await startServe(join(out, 'data'));
  writeFileSync(join(out, 'pid'), String(server.pid));
  browser = await launchNot();
});

// What the set-up never made: closing it must not add a second, misleading error.
afterAll(
  cleanUp(async () => {
    await browser.close();
  }),
);

it('never runs', () => undefined);
