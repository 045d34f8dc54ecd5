import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.mjs';
import { importSamples } from '../support/bundled-samples.js';
import { cleanUp } from '../support/clean-up.js';
import { tempDir } from '../support/convert-to-temp.js';
import { CLI } from '../support/run-cli.js';
import { startServe } from '../support/serve-cli.js';

/**
 * The static archive `export --format html` writes, opened from disk (file://, no server) in
 * Debian's Chromium: no console error, no request outside the archive's folder, and its search.
 */
let browser: Browser | undefined;
let out = '';
let dataDir = '';
let server: ChildProcess | undefined;

beforeAll(async () => {
  const root = tempDir();
  const data = join(root, 'data');
  dataDir = data;
  importSamples(data);
  // A conversation whose text tries to run a script and load a remote image: shown as text.
  const hostile = join(root, 'hostile.json');
  writeFileSync(
    hostile,
    JSON.stringify([
      {
        id: 'hostile-1',
        conversation_id: 'hostile-1',
        title: '<img src=x onerror=alert(1)> hostile',
        create_time: 1_700_000_000,
        update_time: 1_700_000_100,
        current_node: 'a',
        mapping: {
          root: { id: 'root', parent: null, children: ['u'], message: null },
          u: {
            id: 'u',
            parent: 'root',
            children: ['a'],
            message: {
              id: 'u',
              author: { role: 'user', metadata: {} },
              create_time: 1_700_000_001,
              content: {
                content_type: 'text',
                parts: [
                  '<script>window.pwned = 1</script> ![x](https://example.com/x.png) zanzibarquux',
                ],
              },
              metadata: {},
              recipient: 'all',
            },
          },
          a: {
            id: 'a',
            parent: 'u',
            children: [],
            message: {
              id: 'a',
              author: { role: 'assistant', metadata: {} },
              create_time: 1_700_000_002,
              content: { content_type: 'text', parts: ['[click](javascript:alert(1)) fine'] },
              metadata: {},
              recipient: 'all',
            },
          },
        },
      },
    ]),
  );
  execFileSync(process.execPath, [CLI, 'import', hostile, '--data-dir', data, '-q']);
  out = join(root, 'archive');
  execFileSync(process.execPath, [
    CLI,
    'export',
    '--format',
    'html',
    '--out',
    out,
    '--data-dir',
    data,
  ]);
  browser = await launchChromium();
}, 180_000);

afterAll(
  cleanUp(async () => {
    server?.kill();
    await browser?.close();
  }),
);

/** A page of the archive, opened from disk, recording console errors and every request. */
async function open(path: string): Promise<{ page: Page; errors: string[]; requests: string[] }> {
  if (!browser) throw new Error('Chromium did not start');
  const context = await browser.newContext();
  const page = await context.newPage();
  const errors: string[] = [];
  const requests: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('request', (request) => requests.push(request.url()));
  await page.goto(pathToFileURL(join(out, path)).href);
  await page.waitForLoadState('load');
  return { page, errors, requests };
}

const inArchive = (url: string): boolean => url.startsWith(pathToFileURL(out).href + '/');

describe('the HTML archive, from disk', () => {
  it('lists every conversation, with no console error and no request leaving it', async () => {
    const { page, errors, requests } = await open('index.html');
    const pages = readdirSync(join(out, 'conversations')).filter((n) => n.endsWith('.html'));
    expect(await page.locator('#archive-list li').count()).toBe(pages.length);
    expect(errors).toEqual([]);
    expect(requests.length).toBeGreaterThan(3);
    expect(requests.filter((url) => !inArchive(url))).toEqual([]);
    await page.context().close();
  });

  it('finds a word with its search, on the prebuilt index', async () => {
    const { page, errors } = await open('index.html');
    await page.fill('#archive-search', 'zanzibarquux');
    await expect.poll(() => page.locator('#archive-list li:not([hidden])').count()).toBe(1);
    expect(await page.locator('#archive-list li:not([hidden]) a').textContent()).toContain(
      'hostile',
    );
    await page.fill('#archive-search', 'nosuchwordanywhere');
    await expect.poll(() => page.locator('#archive-list li:not([hidden])').count()).toBe(0);
    expect(await page.textContent('#archive-count')).toBe('0 conversations match');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('shows every conversation page with its branches, chat text escaped, nothing remote', async () => {
    const pages = readdirSync(join(out, 'conversations')).filter((n) => n.endsWith('.html'));
    let branches = 0;
    for (const name of pages) {
      const { page, errors, requests } = await open(`conversations/${name}`);
      expect(errors, name).toEqual([]);
      expect(
        requests.filter((url) => !inArchive(url)),
        name,
      ).toEqual([]);
      expect(await page.evaluate(() => (window as { pwned?: number }).pwned)).toBeUndefined();
      branches += await page.locator('section.branch').count();
      // The web app's style sheet applies: a user message is drawn as one.
      expect(await page.locator('article.message').count(), name).toBeGreaterThan(0);
      await page.context().close();
    }
    expect(branches).toBeGreaterThan(0);
    const hostile = pages.find((n) => n.includes('hostile')) ?? '';
    const html = readFileSync(join(out, 'conversations', hostile), 'utf8');
    expect(html).toContain('&lt;script&gt;window.pwned = 1&lt;/script&gt;');
    expect(html).not.toContain('javascript:');
    const { page } = await open(`conversations/${hostile}`);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.textContent('h1')).toBe('<img src=x onerror=alert(1)> hostile');
    await page.context().close();
  });
});

describe('the web app’s downloads', () => {
  it('offers the conversation as Markdown and as HTML, rendered as export renders it', async () => {
    if (!browser) throw new Error('Chromium did not start');
    const started = await startServe(dataDir);
    server = started.server;
    const context = await browser.newContext({ acceptDownloads: true });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(String(error)));
    const hostile =
      readdirSync(join(out, 'conversations')).find((n) => n.includes('hostile')) ?? '';
    const id = /\(([0-9a-f]{8})\)\.html$/.exec(hostile)?.[1] ?? '';
    await page.goto(`${started.base}/#/c/${id}`);
    const markdownLink = page.locator('a.download[data-format="markdown"]');
    await markdownLink.waitFor();
    expect(await markdownLink.textContent()).toBe('Download as Markdown');
    expect(await page.locator('a.download[data-format="html"]').textContent()).toBe('as HTML');
    const [download] = await Promise.all([page.waitForEvent('download'), markdownLink.click()]);
    expect(download.suggestedFilename()).toMatch(/hostile \([0-9a-f]{8}\)\.md$/);
    const text = readFileSync(await download.path(), 'utf8');
    expect(text.startsWith('---\ntitle:')).toBe(true);
    expect(text).toContain('zanzibarquux');
    const [page2] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('a.download[data-format="html"]').click(),
    ]);
    const html = readFileSync(await page2.path(), 'utf8');
    expect(html).toContain('&lt;script&gt;window.pwned = 1&lt;/script&gt;');
    expect(html).not.toContain('<script');
    expect(errors).toEqual([]);
    await context.close();
  });
});
