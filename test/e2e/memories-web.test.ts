import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.mjs';
import { recordedMemories } from '../support/bundle-memories.js';
import { tempDir } from '../support/convert-to-temp.js';
import { memoryStoreErrors } from '../support/pam-validator.js';
import { startServe } from '../support/serve-cli.js';
import { ROOT } from '../support/shared.js';
import { cleanUp } from '../support/clean-up.js';
import { pageFaults } from './page-faults.js';

/**
 * The Memories page in Chromium: remember through the page, find it by a word, open its
 * source, edit it (a new memory supersedes), forget it; hostile text stays text.
 */
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const SHOTS = join(ROOT, 'test-output', 'screenshots');

let server: ChildProcess;
let base: string;
let browser: Browser;
let page: Page;
let data: string;
let source: { conversationId: string; messageId: string };
const errors: string[] = [];
const asked: string[] = [];

// The record: memory-store.json (valid on its own) and the memory journal that extends it.
function bundleMemories(): { id: string; status: string; content: string }[] {
  const json = JSON.parse(
    readFileSync(join(data, 'bundle', 'memory-store.json'), 'utf8'),
  ) as unknown;
  expect(memoryStoreErrors(json)).toEqual([]);
  return recordedMemories<{ id: string; status: string; content: string }>(join(data, 'bundle'));
}

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  data = join(tempDir(), 'data');
  execFileSync('node', [
    CLI,
    'import',
    join(ROOT, 'samples', 'chatgpt-export.zip'),
    '--data-dir',
    data,
    '-q',
  ]);
  const search = execFileSync(
    'node',
    [
      CLI,
      'search',
      'hooch',
      '--per-message',
      '--mode',
      'keyword',
      '--format',
      'json',
      '--data-dir',
      data,
    ],
    { encoding: 'utf8' },
  );
  const hit = (JSON.parse(search) as { hits: { conversationId: string; messageId: string }[] })
    .hits[0];
  if (!hit) throw new Error('the sample has no hooch');
  source = hit;
  // A memory with a source and hostile text, remembered by the CLI while the page is not open.
  execFileSync('node', [
    CLI,
    'remember',
    'Feeds the starter <img src=x onerror="window.__xss=1"> every Sunday',
    '--type',
    'preference',
    '--tag',
    'baking',
    '--conversation',
    hit.conversationId,
    '--message',
    hit.messageId,
    '--data-dir',
    data,
  ]);
  // Claude's export with a project whose doc is Markdown: a memory of its own (a heading, a list).
  execFileSync('node', [
    CLI,
    'import',
    join(ROOT, 'test', 'fixtures', 'claude-ai', 'memories-only-2026'),
    '--data-dir',
    data,
    '-q',
  ]);
  execFileSync('node', [
    CLI,
    'remember',
    'Prefers **short** answers; see [the notes](javascript:window.__xss=2)',
    '--type',
    'preference',
    '--data-dir',
    data,
  ]);
  ({ server, base } = await startServe(data));
  browser = await launchChromium();
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of 400/.test(message.text()))
      errors.push(message.text());
  });
  page.on('dialog', (dialog) => {
    asked.push(dialog.message());
    void dialog.accept();
  });
}, 120_000);

afterAll(
  cleanUp(async () => {
    await browser.close();
    server.kill();
  }),
);

describe('the Memories page in Chromium', () => {
  it('remembers, finds by a word, links the source, edits (supersedes) and forgets', async () => {
    await page.goto(`${base}/#/memories`);
    await page.waitForSelector('#memory-list article.memory');
    // The hostile memory is shown as text.
    await page.locator('#memory-list article.memory', { hasText: '<img src=x' }).waitFor();
    expect(
      await page.evaluate(() => (window as unknown as { __xss?: number }).__xss),
    ).toBeUndefined();

    await page.fill('#memory-new', 'Wants to try a spelt loaf next');
    await page.selectOption('.memory-add select', 'goal');
    await page.fill('#memory-new-tags', 'Baking, spelt');
    await page.click('#memory-remember');
    await page.waitForSelector('article.memory:has-text("spelt loaf")');
    expect(bundleMemories().map((m) => m.content)).toContain('Wants to try a spelt loaf next');
    // It says how it will be found: this data folder was never embedded, so by words for now.
    await expect
      .poll(() => page.locator('#memory-add-note').innerText())
      .toMatch(/^found by words; .*chatgraph embed/);

    await page.fill('#memory-query', 'sunday');
    await page.waitForFunction(() => location.hash.includes('query=sunday'));
    await page.waitForFunction(
      () => document.querySelectorAll('#memory-list article.memory').length === 1,
    );
    expect(await page.locator('#memory-list mark').first().innerText()).toBe('Sunday');
    await page.screenshot({ path: join(SHOTS, 'memories.png') });

    // The Search page lists it too, marked as a memory.
    await page.goto(`${base}/#/search?q=sunday&mode=keyword`);
    await page.waitForSelector('#search-results a.hit-memory');
    expect(await page.locator('#search-results a.hit-memory').innerText()).toContain('Memory');
    await page.goto(`${base}/#/memories?query=sunday`);
    await page.waitForSelector('#memory-list a.memory-source');

    // Its source opens the conversation at the message.
    await page.click('#memory-list a.memory-source');
    await page.waitForFunction(() => location.hash.startsWith('#/c/'));
    await page.waitForSelector('#view:not([data-loading])');
    expect(decodeURIComponent(await page.evaluate(() => location.hash))).toBe(
      `#/c/${source.conversationId}?m=${source.messageId}`,
    );

    // Edit: a new memory, the old one superseded.
    await page.goto(`${base}/#/memories?query=spelt`);
    await page.waitForSelector('article.memory:has-text("spelt loaf") .memory-edit');
    await page.click('article.memory:has-text("spelt loaf") .memory-edit');
    await page.fill('.memory-edit-text', 'Wants to try a spelt and rye loaf next');
    await page.click('.memory-save');
    await page.waitForSelector('article.memory:has-text("spelt and rye")');
    const edited = bundleMemories().filter((m) => m.content.includes('spelt'));
    expect(edited.map((m) => m.status).sort()).toEqual(['active', 'superseded']);

    // Forget: asked first, then gone from the list; the bundle keeps it retracted.
    await page.click('article.memory:has-text("spelt and rye") .memory-forget');
    await page.waitForSelector('#memory-list p.summary:has-text("No memories match")');
    expect(asked).toHaveLength(1);
    expect(
      bundleMemories()
        .filter((m) => m.content.includes('spelt'))
        .map((m) => m.status)
        .sort(),
    ).toEqual(['retracted', 'superseded']);

    // The history shows both, without Edit or Forget.
    await page.check('.filters input[name=all]');
    await page.waitForFunction(
      () => document.querySelectorAll('#memory-list article.memory').length === 2,
    );
    expect(await page.locator('#memory-list .memory-actions').count()).toBe(0);
    expect(errors).toEqual([]);
  });

  // The conversation pages' Markdown (marked, then DOMPurify): a project doc's heading and list
  // were flattened into one line of text before; HTML in a memory stays text as it was.
  it('renders a memory’s Markdown as the conversation pages do, safely', async () => {
    await page.goto(`${base}/#/memories`);
    const doc = page.locator('#memory-list article.memory', { hasText: 'Family: 34' });
    await doc.waitFor();
    expect(await doc.locator('.memory-content h1').innerText()).toBe('Guests');
    expect(await doc.locator('.memory-content li').allInnerTexts()).toEqual([
      'Family: 34',
      'Friends: 38',
      'Colleagues: 8',
    ]);
    const short = page.locator('#memory-list article.memory', { hasText: 'answers; see' });
    expect(await short.locator('.memory-content strong').innerText()).toBe('short');
    // The javascript: link loses its target (DOMPurify), so nothing runs when it is clicked.
    const link = short.locator('.memory-content a', { hasText: 'the notes' });
    expect(await link.getAttribute('href')).toBeNull();
    await link.click();
    await page.locator('#memory-list article.memory', { hasText: '<img src=x onerror=' }).waitFor();
    expect(await page.locator('#memory-list article.memory img').count()).toBe(0);
    expect(
      await page.evaluate(() => (window as unknown as { __xss?: number }).__xss),
    ).toBeUndefined();
    const faults: string[] = [];
    for (const scheme of ['light', 'dark'] as const)
      for (const width of [1280, 390]) {
        const context = await browser.newContext({
          viewport: { width, height: 900 },
          colorScheme: scheme,
        });
        const shot = await context.newPage();
        await shot.goto(`${base}/#/memories`);
        await shot.locator('#memory-list article.memory', { hasText: 'Family: 34' }).waitFor();
        await shot.screenshot({
          path: join(SHOTS, `memories-markdown-${String(width)}-${scheme}.png`),
          fullPage: true,
        });
        faults.push(...(await pageFaults(shot, `memories ${String(width)} ${scheme}`)));
        await context.close();
      }
    expect(faults).toEqual([]);
    expect(errors).toEqual([]);
  });

  it('refuses a bad edit through the API with a plain sentence', async () => {
    const answer = await page.evaluate(async () => {
      const response = await fetch('/api/memories', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ content: 'x', type: 'fact', tags: ['??'] }),
      });
      return { status: response.status, body: (await response.json()) as { error: string } };
    });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/the tag "\?\?" cannot be written/);
    const missing = await page.evaluate(
      async () => (await fetch('/api/memories/nope', { method: 'DELETE' })).status,
    );
    expect(missing).toBe(404);
  });
});
