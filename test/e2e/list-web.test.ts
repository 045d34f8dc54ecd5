import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.mjs';
import { cleanUp } from '../support/clean-up.js';
import { tempDir } from '../support/convert-to-temp.js';
import { writeListExport } from '../support/list-fixtures.js';
import { startServe } from '../support/serve-cli.js';
import { ROOT, fixturesOf } from '../support/shared.js';

/** The conversation list in Chromium: previews, periods, sorts, the empty toggle, paging. */
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const SHOTS = join(ROOT, 'test-output', 'screenshots');

let server: ChildProcess;
let base: string;
let browser: Browser;
let page: Page;
let errors: string[];

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const dir = tempDir();
  const data = join(dir, 'data');
  execFileSync('node', [
    CLI,
    'import',
    writeListExport(dir),
    ...fixturesOf('claude-ai'),
    '--data-dir',
    data,
    '--quiet',
  ]);
  ({ server, base } = await startServe(data));
  browser = await launchChromium();
});

afterAll(
  cleanUp(async () => {
    await browser.close();
    server.kill();
  }),
);

beforeEach(async () => {
  page = await browser.newPage({ viewport: { width: 1280, height: 860 }, locale: 'en-GB' });
  errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
});

afterEach(async () => {
  await page.close();
  expect(errors).toEqual([]);
});

const titles = (): Promise<string[]> => page.locator('a.conversation-link').allTextContents();

describe('the conversation list', () => {
  it('shows preview, source, model, size and date, grouped by period, empty ones hidden', async () => {
    await page.goto(`${base}/#/?source=chatgpt`);
    await page.waitForSelector('.conversation-row');
    const today = page.locator('.conversation-row', { hasText: 'Talked about today' });
    expect(await today.locator('.preview').textContent()).toBe('hello');
    expect(await today.locator('.source').textContent()).toBe('chatgpt');
    expect(await today.locator('.model').textContent()).toBe('gpt-4o');
    expect(await today.locator('.count').textContent()).toBe('3 messages');
    const november = page.locator('.conversation-row', { hasText: 'November planning' });
    // The browser's locale (en-GB here: day before month).
    expect(await november.locator('time').textContent()).toBe('15 Nov 2025');
    const periods = await page.locator('h2.period').allTextContents();
    expect(periods.slice(0, 3)).toEqual(['Today', 'November 2025', 'October 2025']);
    expect(await titles()).not.toContain('conv-empty-1');
    // An untitled conversation is named by its first prompt, as the chat apps name it.
    const untitled = page.locator('a.conversation-link.untitled');
    expect(await untitled.textContent()).toBe('hello');
    expect(await untitled.getAttribute('title')).toBe('conv-untitled-1');
    expect(await page.locator('.list-count').textContent()).toBe('50 of 65 conversations');
    await page.screenshot({ path: join(SHOTS, 'list-periods-1280.png') });
  });

  it('loads the next page as it is scrolled to, from where the last ended', async () => {
    await page.goto(`${base}/#/?source=chatgpt`);
    await page.waitForSelector('.conversation-row');
    expect(await page.locator('.conversation-row').count()).toBe(50);
    await page.locator('button.more').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelectorAll('.conversation-row').length === 65);
    expect(await page.locator('.list-count').textContent()).toBe('65 of 65 conversations');
    expect(await page.locator('button.more').isHidden()).toBe(true);
    const shown = await titles();
    expect(new Set(shown).size).toBe(65);
    // The periods continue across pages: each heading once.
    const periods = await page.locator('h2.period').allTextContents();
    expect(new Set(periods).size).toBe(periods.length);
  });

  it('keeps loading as it is scrolled when the page is put together after a slow answer', async () => {
    // The sources answer late: the list is built, then waits for them before it is shown.
    await page.route('**/api/sources', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 500));
      await route.continue();
    });
    try {
      await page.goto(`${base}/#/?source=chatgpt&sort=title`);
      await page.waitForSelector('.conversation-row');
      expect(await page.locator('.conversation-row').count()).toBe(50);
      await page.locator('button.more').scrollIntoViewIfNeeded();
      await page.waitForFunction(
        () => document.querySelectorAll('.conversation-row').length === 65,
      );
    } finally {
      await page.unroute('**/api/sources');
    }
  });

  it('shows empty conversations when asked, sorts by title and by size, filters by source', async () => {
    await page.goto(`${base}/`);
    await page.waitForSelector('.conversation-row');
    await page.check('#list-filters input[name=empty]');
    await page.selectOption('#list-filters select[name=sort]', 'title');
    await page.click('#list-filters button[type=submit]');
    await page.waitForFunction(() => location.hash.includes('empty=1'));
    await page.locator('a.conversation-link', { hasText: 'conv-empty-1' }).waitFor();
    expect(await page.locator('h2.period').count()).toBe(0);
    // Sorted by name: an untitled one (shown by its first prompt) by the name it has.
    const byTitle = await page
      .locator('a.conversation-link')
      .evaluateAll((links) => links.map((a) => a.getAttribute('title') ?? a.textContent));
    expect(byTitle).toEqual(
      [...byTitle].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase(), 'en')),
    );
    await page.selectOption('#list-filters select[name=sort]', 'messages');
    await page.selectOption('#list-filters select[name=source]', 'claude-ai');
    await page.click('#list-filters button[type=submit]');
    await page.waitForFunction(() => location.hash.includes('sort=messages'));
    // Rows there, and all of that source: an empty list while the new page loads is not it.
    await page.waitForFunction(() => {
      const sources = [...document.querySelectorAll('.conversation-row .source')];
      return sources.length > 1 && sources.every((s) => s.textContent === 'claude-ai');
    });
    const counts = (await page.locator('.conversation-row .count').allTextContents()).map((c) =>
      Number(c.replace(/\D/g, '')),
    );
    expect(counts.length).toBeGreaterThan(1);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
  });

  it('draws each conversation as a card on a 390 px phone, none wider than the screen', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/#/?source=chatgpt`);
    await page.waitForSelector('.conversation-row');
    const card = await page
      .locator('.conversation-row')
      .first()
      .evaluate((row) => {
        const style = getComputedStyle(row);
        return {
          radius: style.borderTopLeftRadius,
          border: style.borderTopWidth,
          columns: style.gridTemplateColumns.split(' ').length,
        };
      });
    expect(card).toEqual({ radius: '8px', border: '1px', columns: 1 });
    const [scrollWidth, innerWidth] = await page.evaluate(() => [
      document.documentElement.scrollWidth,
      window.innerWidth,
    ]);
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth);
    await page.screenshot({ path: join(SHOTS, 'list-cards-390.png') });
  });

  it('moves between rows with j, k and the arrows, opens one with Enter, goes back with Esc', async () => {
    await page.goto(`${base}/#/?source=chatgpt`);
    await page.waitForSelector('.conversation-row');
    const focused = (): Promise<string | null | undefined> =>
      page.evaluate(() => document.activeElement?.textContent);
    await page.keyboard.press('j');
    expect(await focused()).toBe('Talked about today');
    await page.keyboard.press('j');
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('November planning');
    await page.keyboard.press('k');
    expect(await focused()).toBe('Late November notes');
    const outline = await page.evaluate(
      () => getComputedStyle(document.activeElement as Element).outlineStyle,
    );
    expect(outline).not.toBe('none');
    await page.keyboard.press('Enter');
    await page.waitForSelector('article.message');
    expect(page.url()).toContain('#/c/');
    await page.keyboard.press('Escape');
    await page.waitForSelector('.conversation-row');
    expect(page.url()).toContain('source=chatgpt');
  });
});
