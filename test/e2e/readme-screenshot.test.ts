import type { ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.mjs';
import { tempDir } from '../support/convert-to-temp.js';
import { startServe } from '../support/serve-cli.js';
import { ROOT } from '../support/shared.js';
import { importSamples } from '../support/bundled-samples.js';
import { cleanUp } from '../support/clean-up.js';

/**
 * The README's picture, made from the bundled samples as a newcomer would see them: a
 * conversation in the web app. It lands in test-output/screenshots; with
 * `CHATGRAPH_UPDATE_DOCS=1` it is also copied over docs/screenshots/app.png.
 */
const SHOTS = join(ROOT, 'test-output', 'screenshots');
// The samples' Japan trip: its id is derived from the sample, so it is the same on every run.
const TRIP = 'a6dac0c6-061d-4b9b-821b-44cd531b4107';

let server: ChildProcess | undefined;
let browser: Browser | undefined;
let base = '';

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const data = join(tempDir(), 'data');
  importSamples(data);
  ({ server, base } = await startServe(data));
  browser = await launchChromium();
});

afterAll(
  cleanUp(async () => {
    server?.kill();
    await browser?.close();
  }),
);

describe("the README's screenshot", () => {
  it('shows a sample conversation, titled and with its messages', async () => {
    if (!browser) throw new Error('Chromium did not start');
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${base}/#/c/${TRIP}`);
    await page.getByRole('heading', { name: 'Japan Trip Itinerary' }).waitFor();
    expect(await page.getByText('cherry blossom season').count()).toBeGreaterThan(0);
    const shot = join(SHOTS, 'readme-app.png');
    await page.screenshot({ path: shot });
    if (process.env.CHATGRAPH_UPDATE_DOCS === '1')
      copyFileSync(shot, join(ROOT, 'docs', 'screenshots', 'app.png'));
    await page.close();
  });
});
