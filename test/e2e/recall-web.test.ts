import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.mjs';
import { tempDir } from '../support/convert-to-temp.js';
import { testModelDir } from '../support/embedding-model.js';
import { writeExport } from '../support/recall-fixtures.js';
import { startServe } from '../support/serve-cli.js';
import { ROOT } from '../support/shared.js';
import { cleanUp } from '../support/clean-up.js';

/**
 * Search by meaning in the web app, end to end: a small history imported and embedded with the
 * real model, served by the built CLI, used in Debian's Chromium.
 */
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const SHOTS = join(ROOT, 'test-output', 'screenshots');
const env = { ...process.env, CHATGRAPH_MODEL_DIR: testModelDir() };

let server: ChildProcess;
let base: string;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const dir = tempDir();
  const data = join(dir, 'data');
  execFileSync('node', [CLI, 'import', writeExport(dir), '--data-dir', data, '-q'], { env });
  execFileSync('node', [CLI, 'embed', '--data-dir', data, '-q'], { env });
  ({ server, base } = await startServe(data, env));
  browser = await launchChromium();
});

afterAll(
  cleanUp(async () => {
    await browser.close();
    server.kill();
  }),
);

beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
});

afterEach(async () => {
  await page.close();
});

describe('search by meaning in the web app', () => {
  it('finds a conversation by a paraphrase with "Meaning only", and says why each hit matched', async () => {
    await page.goto(`${base}/#/search`);
    await page.selectOption('#search-mode', 'semantic');
    await page.fill('#search-input', 'my bread leaven has a chemical odour');
    const summary = page.locator('#search-results p.summary[data-mode="semantic"]');
    await summary.waitFor();
    const first = page.locator('#search-results a.hit').first();
    expect(await first.locator('strong').textContent()).toBe('conv-starter');
    expect(await first.locator('.why').textContent()).toMatch(/^meaning \d+%$/);
    expect(page.url()).toContain('mode=semantic');
    await page.screenshot({ path: join(SHOTS, 'search-by-meaning.png') });
  });

  it('defaults to words and meaning once embedded, and lists similar messages under a message', async () => {
    await page.goto(`${base}/#/search`);
    await page.fill('#search-input', 'faucet');
    await page.locator('#search-results p.summary[data-mode="hybrid"]').waitFor();
    const hit = page.locator('#search-results a.hit').first();
    expect(await hit.locator('.why').textContent()).toMatch(/^words \+ meaning \d+%$/);
    await hit.click();
    const message = page.locator('article.message').first();
    await message.waitFor();
    await message.locator('button.similar-button').click();
    const similar = message.locator('.similar a.hit');
    await similar.first().waitFor();
    expect(await similar.count()).toBeGreaterThan(0);
    expect(await similar.first().locator('.why').textContent()).toMatch(/^meaning \d+%$/);
    await page.screenshot({ path: join(SHOTS, 'similar-messages.png') });
  });
});
