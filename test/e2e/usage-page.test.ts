import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.mjs';
import { cleanUp } from '../support/clean-up.js';
import { tempDir } from '../support/convert-to-temp.js';
import { CLI } from '../support/run-cli.js';
import { startServe } from '../support/serve-cli.js';
import { ROOT } from '../support/shared.js';
import { pageFaults } from './page-faults.js';

/**
 * The Usage page over the coding agents' fixtures and a chat export, served by the built CLI
 * and used in Debian's Chromium at a phone's and a desktop's width, light and dark.
 */
const SHOTS = join(ROOT, 'test-output', 'screenshots');
const fixture = (...parts: string[]): string => join(ROOT, 'test', 'fixtures', ...parts);
// Days in UTC in the page too: the browser's time zone is the one asked for.
const env = { ...process.env, TZ: 'UTC', XDG_CONFIG_HOME: tempDir() };

let server: ChildProcess | undefined;
let browser: Browser | undefined;
let base = '';

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const data = join(tempDir(), 'data');
  execFileSync(
    process.execPath,
    [
      CLI,
      'import',
      '-q',
      '--data-dir',
      data,
      fixture('codex', 'rollout-2025-10-29T09-12-04-019a2f3d-1704-7a1b-8c1d-2e3f4a5b6c7d.jsonl'),
      fixture('gemini-cli', 'session-2025-09-18T08-30-7f3e2a91.json'),
      fixture('qwen-code', 'c41d2e7a-9b3f-4a6c-8e15-72f0a9d3b8c4.jsonl'),
      fixture('claude-code', 'notes-second-session.jsonl'),
      fixture('claude-code', 'recipe-box-session.jsonl'),
      fixture('claude-code', 'garden-edge-cases.jsonl'),
      fixture('chatgpt', 'kitchen-forks.json'),
    ],
    { env },
  );
  ({ server, base } = await startServe(data, env));
  browser = await launchChromium();
}, 180_000);

afterAll(
  cleanUp(async () => {
    server?.kill();
    await browser?.close();
  }),
);

async function open(route: string, width: number, scheme: 'light' | 'dark'): Promise<Page> {
  if (!browser) throw new Error('Chromium did not start');
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    colorScheme: scheme,
    timezoneId: 'UTC',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(`${base}/#${route}`);
  await page.waitForSelector('#usage-tokens');
  expect(errors).toEqual([]);
  return page;
}

describe('the Usage page', () => {
  it('shows the tokens over time stacked by model, by project and by model', async () => {
    const page = await open('/usage?by=month', 1280, 'light');
    // The fixtures' totals (each counted by hand in usage-cli.test.ts and the goldens): Codex
    // 31,640, Gemini CLI 730, Qwen Code 19,869, Claude Code 10,380 + 41,520 + 41,520.
    const api = await page.evaluate(async () => {
      const response = await fetch('/api/usage?by=month&breakdown=1&tz=UTC');
      return (await response.json()) as { total: { total_tokens: number } };
    });
    expect(api.total.total_tokens).toBe(31_640 + 730 + 19_869 + 10_380 + 41_520 + 41_520);
    expect(await page.locator('#usage-tokens').textContent()).toBe('146K');
    const bars = page.locator('#usage-over-time svg rect');
    expect(await bars.count()).toBeGreaterThan(3);
    expect(await page.locator('table caption').allTextContents()).toEqual([
      'By project',
      'By model',
    ]);
    const models = await page
      .locator('table:has(caption:text("By model")) tbody th')
      .allTextContents();
    expect(models).toContain('gpt-5-codex');
    expect(models).toContain('qwen3-coder-plus');
    const text = (await page.locator('#view').textContent()) ?? '';
    expect(text).toContain('No price for qwen3-coder-plus');
    expect(text).toContain('No token counts in chatgpt');
    // The filters are the list's: a source narrows everything.
    await page.selectOption('#usage-filters select[name=source]', 'codex');
    await page.click('#usage-filters button[type=submit]');
    await page.waitForFunction(() => location.hash.includes('source=codex'));
    await page.waitForFunction(
      () => document.querySelector('#usage-tokens')?.textContent === '31,640',
    );
    await page.context().close();
  });

  // The CLI's `usage --estimate` and the MCP tool's `estimate`: chat exports (here ChatGPT's,
  // which hold no token counts) estimated from their text length, apart from the counted total.
  it('estimates the chat exports’ tokens when asked, marked and apart, kept in the address', async () => {
    const page = await open('/usage?by=month', 1280, 'light');
    const box = page.getByLabel('Estimate chat exports’ tokens from their text length');
    expect(await box.isChecked()).toBe(false);
    expect(await page.locator('#usage-estimated').count()).toBe(0);
    await box.check();
    await page.click('#usage-filters button[type=submit]');
    await page.waitForFunction(() => location.hash.includes('estimate=1'));
    await page.waitForSelector('#usage-estimated');
    const api = await page.evaluate(async () => {
      const response = await fetch('/api/usage?by=month&breakdown=1&tz=UTC&estimate=1');
      return (await response.json()) as {
        total: { total_tokens: number };
        estimated: { total: { total_tokens: number }; method: string };
      };
    });
    // The counted total is unchanged; the estimate is its own sum, shown beside it.
    expect(api.total.total_tokens).toBe(31_640 + 730 + 19_869 + 10_380 + 41_520 + 41_520);
    expect(api.estimated.total.total_tokens).toBeGreaterThan(0);
    expect(await page.locator('#usage-tokens').textContent()).toBe('146K');
    expect(await page.locator('#usage-estimated').textContent()).toBe(
      `~${api.estimated.total.total_tokens.toLocaleString('en-US')}`,
    );
    const models = await page
      .locator('table:has(caption:text("By model")) tbody th')
      .allTextContents();
    expect(models.filter((m) => m.endsWith(' ~')).length).toBeGreaterThan(0);
    const text = (await page.locator('#view').textContent()) ?? '';
    expect(text).toContain('~ Estimated rows: estimated from text length, not counted');
    expect(text).toContain('No token counts in chatgpt');
    expect(text).toContain('estimated in the rows marked ~, not counted');
    // The address is the page's state: opened from it, the box is checked.
    await page.reload();
    await page.waitForSelector('#usage-estimated');
    expect(await box.isChecked()).toBe(true);
    await box.uncheck();
    await page.click('#usage-filters button[type=submit]');
    await page.waitForFunction(() => !location.hash.includes('estimate'));
    await page.waitForFunction(() => document.querySelector('#usage-estimated') === null);
    await page.context().close();
  });

  it('has no serious accessibility fault and fits 390 and 1280 px, light and dark', async () => {
    const failures: string[] = [];
    for (const scheme of ['light', 'dark'] as const)
      for (const width of [1280, 390]) {
        for (const estimate of [false, true]) {
          const page = await open(`/usage?by=month${estimate ? '&estimate=1' : ''}`, width, scheme);
          await page.waitForSelector(estimate ? '#usage-estimated' : '#usage-tokens');
          const name = `usage${estimate ? '-estimate' : ''}-${String(width)}-${scheme}`;
          await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
          failures.push(...(await pageFaults(page, name)));
          await page.context().close();
        }
      }
    expect(failures).toEqual([]);
  }, 120_000);
});
