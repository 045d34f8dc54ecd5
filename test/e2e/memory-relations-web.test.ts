import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.mjs';
import { cleanUp } from '../support/clean-up.js';
import { tempDir } from '../support/convert-to-temp.js';
import { startServe } from '../support/serve-cli.js';
import { ROOT } from '../support/shared.js';
import { pageFaults } from './page-faults.js';

/**
 * The Memories page shows each memory's PAM relations both ways: the relation and the other
 * memory's text (escaped), linked to it in the list; readable at phone and desktop widths,
 * light and dark.
 */
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const SHOTS = join(ROOT, 'test-output', 'screenshots');
const HOSTILE = `Glazes craze <img src=x onerror="window.__xss=1"> ${'x'.repeat(30)} below cone 9`;

let server: ChildProcess;
let base: string;
let browser: Browser;
const ids = { kiln: '', glaze: '', doubt: '' };
let data: string;

function remember(content: string, ...flags: string[]): string {
  const out = execFileSync(
    'node',
    [CLI, 'remember', content, '--type', 'fact', ...flags, '--json', '--data-dir', data],
    { encoding: 'utf8' },
  );
  return (JSON.parse(out) as { memory: { id: string } }).memory.id;
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  data = join(tempDir(), 'data');
  ids.kiln = remember('The kiln fires at 1280 degrees');
  ids.glaze = remember(HOSTILE, '--supports', ids.kiln);
  ids.doubt = remember('The kiln never got past cone 8', '--contradicts', ids.kiln);
  ({ server, base } = await startServe(data));
  browser = await launchChromium();
}, 120_000);

afterAll(
  cleanUp(async () => {
    await browser.close();
    server.kill();
  }),
);

async function open(width: number, scheme: 'light' | 'dark'): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width, height: 860 },
    colorScheme: scheme,
  });
  const page = await context.newPage();
  await page.goto(`${base}/#/memories`);
  await page.waitForSelector('#memory-list article.memory .memory-relations');
  return page;
}

const article = (page: Page, id: string) =>
  page.locator(`#memory-list article.memory[data-id="${id}"]`);

describe('memory relations on the Memories page', () => {
  it('shows each relation both ways with the other memory, escaped and linked', async () => {
    const page = await open(1280, 'light');
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    const kiln = article(page, ids.kiln);
    const lines = await kiln.locator('.memory-relation').allInnerTexts();
    expect(lines.map((l) => l.replace(/\s+/g, ' ').trim()).sort()).toEqual(
      [
        `supported by ${HOSTILE.replace(/\s+/g, ' ')}`,
        'contradicted by The kiln never got past cone 8',
      ].sort(),
    );
    // From the other end: the glaze memory says what it supports.
    expect(await article(page, ids.glaze).locator('.memory-relation').innerText()).toBe(
      'supports The kiln fires at 1280 degrees',
    );
    // The hostile text is text: no image element, no script run.
    expect(await page.locator('#memory-list .memory-relations img').count()).toBe(0);
    expect(
      await page.evaluate(() => (window as unknown as { __xss?: number }).__xss),
    ).toBeUndefined();

    // The link brings the other memory into view, marked.
    await kiln.locator('a.memory-relation-link', { hasText: 'cone 8' }).click();
    // (The page shows the history then, so a forgotten or replaced one is there too.)
    await page.waitForSelector(`article.memory-shown[data-id="${ids.doubt}"]`);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('fits phone and desktop widths with no serious accessibility fault, light and dark', async () => {
    const failures: string[] = [];
    for (const scheme of ['light', 'dark'] as const)
      for (const width of [1280, 390]) {
        const page = await open(width, scheme);
        await page.screenshot({
          path: join(SHOTS, `memory-relations-${String(width)}-${scheme}.png`),
          fullPage: true,
        });
        failures.push(...(await pageFaults(page, `memories ${String(width)} ${scheme}`)));
        await page.context().close();
      }
    expect(failures).toEqual([]);
  }, 120_000);
});
