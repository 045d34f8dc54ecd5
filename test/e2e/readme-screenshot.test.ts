import type { ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.mjs';
import { tempDir } from '../support/convert-to-temp.js';
import { startServe } from '../support/serve-cli.js';
import { ROOT } from '../support/shared.js';
import { importSamples } from '../support/bundled-samples.js';
import { cleanUp } from '../support/clean-up.js';

/**
 * The README's picture and docs/web-app.md's, made from the bundled samples as a newcomer would
 * see them in the web app. They land in test-output/screenshots; with `CHATGRAPH_UPDATE_DOCS=1`
 * they are also copied over docs/screenshots/ (app.png, and one a page for docs/web-app.md).
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
    keep(shot, 'app.png');
    await page.close();
  });
});

// Copies a shot over its picture in docs/screenshots/ when asked to.
function keep(shot: string, name: string): void {
  if (process.env.CHATGRAPH_UPDATE_DOCS === '1')
    copyFileSync(shot, join(ROOT, 'docs', 'screenshots', name));
}

// What each picture of docs/web-app.md shows, and what must be drawn before it is taken.
const DOC_PAGES: [string, string, (page: Page) => Promise<void>][] = [
  [
    'conversations.png',
    '/',
    async (page) => {
      expect(await page.locator('.conversation-row').count()).toBeGreaterThan(20);
    },
  ],
  [
    'branch-switcher.png',
    `/c/${TRIP}`,
    async (page) => {
      // The other answer to the first prompt: the switcher at work, not app.png again.
      await page.locator('.branch-prev').first().click();
      await page.locator('.branch-position', { hasText: '1 / 2' }).first().waitFor();
    },
  ],
  [
    'search.png',
    '/search?q=python',
    async (page) => {
      await page.locator('.hit-card').first().waitFor();
    },
  ],
  [
    'graph.png',
    `/graph/${TRIP}`,
    async (page) => {
      await page.waitForFunction(() => {
        const cy = (window as unknown as { chatgraphGraph?: { nodes(): { length: number } } })
          .chatgraphGraph;
        return (cy?.nodes().length ?? 0) > 5;
      });
      await page.locator('#graph-legend').waitFor();
    },
  ],
  [
    'overview.png',
    '/overview',
    async (page) => {
      await page.locator('#timeline canvas').first().waitFor();
    },
  ],
  [
    'cypher.png',
    '/cypher',
    async (page) => {
      await page.selectOption('#cypher-examples', { label: 'Cross-platform count' });
      await page.click('#cypher-run');
      const sources = page.locator('#cypher-results td:first-child');
      await sources.first().waitFor();
      expect((await sources.allTextContents()).sort()).toEqual([
        'chatgpt',
        'claude-ai',
        'claude-code',
      ]);
    },
  ],
];

describe("docs/web-app.md's screenshots", () => {
  for (const [name, route, drawn] of DOC_PAGES)
    it(`shows the samples: ${name}`, async () => {
      if (!browser) throw new Error('Chromium did not start');
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(String(error)));
      await page.goto(`${base}/#${route}`);
      await page.waitForFunction(() => {
        const view = document.getElementById('view');
        return view !== null && view.dataset.loading === undefined && view.childElementCount > 0;
      });
      await drawn(page);
      // The frame after what was drawn, and the chart's or graph's own animation.
      await page.waitForTimeout(400);
      const shot = join(SHOTS, `docs-${name}`);
      await page.screenshot({ path: shot });
      expect(errors).toEqual([]);
      keep(shot, name);
      await page.close();
    });
});
