import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.mjs';
import { msg, node } from '../support/chatgpt-builder.js';
import { cleanUp } from '../support/clean-up.js';
import { tempDir } from '../support/convert-to-temp.js';
import { CLI } from '../support/run-cli.js';
import { startServe } from '../support/serve-cli.js';
import { ROOT } from '../support/shared.js';
import { pageFaults } from './page-faults.js';

/**
 * A ChatGPT canvas (and a deep-research report) in the web app's conversation view: drawn as a
 * document, with its name as a heading, its version label, its Markdown rendered and sanitised,
 * folded when long; served by the built CLI and read in Debian's Chromium.
 */
const SHOTS = join(ROOT, 'test-output', 'screenshots');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'chatgpt');
const CANVAS = 'cv26aa00-2026-4b7e-8d1c-0f1e2d3c4b5a';
const HOSTILE = 'canvas-hostile-1';

// A long canvas whose Markdown tries to run code: none of it may, and it opens folded.
const HOSTILE_TEXT = [
  '# Launch plan',
  '**Owner**: the platform team. <script>window.__xss = "script"</script>',
  '<img src="x" alt="a chart" onerror="window.__xss = \'img\'">',
  '[click me](javascript:window.__xss=%22link%22)',
  ...Array.from(
    { length: 30 },
    (_, i) => `${String(i + 1)}. Step ${String(i + 1)}: check the rollout dashboards and note it.`,
  ),
  `A path no phone is wide enough for: ${'/very-long-segment'.repeat(20)}`,
].join('\n\n');

function hostileCanvas(): Record<string, unknown> {
  const create = JSON.stringify({
    name: 'Launch <b>plan</b>',
    type: 'document',
    content: HOSTILE_TEXT,
  });
  return {
    id: HOSTILE,
    conversation_id: HOSTILE,
    title: 'Launch plan canvas',
    create_time: 1_764_000_000,
    update_time: 1_764_000_100,
    current_node: 'a',
    mapping: {
      root: node('root', null, ['u'], null),
      u: node('u', 'root', ['c'], msg('u', 'user', 'Write our launch plan.', 1_764_000_001)),
      c: node(
        'c',
        'u',
        ['a'],
        msg('c', 'assistant', '', 1_764_000_002, {
          content: { content_type: 'code', language: 'json', text: create },
          recipient: 'canmore.create_textdoc',
        }),
      ),
      a: node('a', 'c', [], msg('a', 'assistant', 'The plan is in the canvas.', 1_764_000_003)),
    },
  };
}

let server: ChildProcess | undefined;
let browser: Browser | undefined;
let base = '';

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const dir = tempDir();
  const made = join(dir, 'conversations.json');
  writeFileSync(made, JSON.stringify([hostileCanvas()]));
  const data = join(dir, 'data');
  execFileSync(process.execPath, [
    CLI,
    'import',
    join(FIXTURES, 'canvas-2026.json'),
    join(FIXTURES, 'deep-research-2026.json'),
    made,
    '--data-dir',
    data,
    '-q',
  ]);
  ({ server, base } = await startServe(data));
  browser = await launchChromium();
}, 120_000);

afterAll(
  cleanUp(async () => {
    server?.kill();
    await browser?.close();
  }),
);

async function open(id: string, width = 1280, scheme: 'light' | 'dark' = 'light'): Promise<Page> {
  if (!browser) throw new Error('Chromium did not start');
  const context = await browser.newContext({
    viewport: { width, height: 860 },
    colorScheme: scheme,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('dialog', (dialog) => {
    errors.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.goto(`${base}/#/c/${id}`);
  await page.locator('article.message').first().waitFor();
  expect(errors).toEqual([]);
  return page;
}

describe('a canvas in the web app', () => {
  it('is drawn as a document: its name a heading, its version, its text as Markdown', async () => {
    const page = await open(CANVAS);
    const documents = page.locator('section.document');
    await documents.first().waitFor();
    // Create, two updates that applied, and the comments on version 3, each at its message.
    expect(await documents.locator('h2').allInnerTexts()).toEqual([
      'Fernhill cover letter',
      'Fernhill cover letter',
      'Fernhill cover letter',
      'Fernhill cover letter',
    ]);
    expect(await documents.locator('.document-version').allInnerTexts()).toEqual([
      'version 2',
      'version 3',
      'comments on version 3',
    ]);
    const last = documents.filter({ hasText: 'version 3' }).first();
    await expect.poll(() => last.locator('.markdown').innerText()).toContain('Dear Ms. Okafor');
    expect(await last.locator('.markdown').isVisible()).toBe(true);
    // The comments quote their passage: Markdown, drawn as a quotation.
    const comments = documents.filter({ hasText: 'comments on version 3' });
    expect(await comments.locator('.markdown blockquote').innerText()).toContain('forty minutes');
    // Drawn once, as a document, not also as a generic attachment.
    expect(await page.locator('details.attachment-text').count()).toBe(0);
    await page.context().close();
  });

  it('draws a deep-research report as a document too', async () => {
    const page = await open('6a20c0de-0000-4a4a-9d9d-00000000d000');
    const report = page.locator('section.document');
    await report.first().waitFor();
    expect(await report.locator('h2').first().innerText()).not.toBe('');
    expect(await report.locator('.markdown').count()).toBeGreaterThan(0);
    await page.context().close();
  });

  it('folds a long document, and runs none of the code its Markdown holds', async () => {
    const page = await open(HOSTILE);
    const document = page.locator('section.document');
    await document.waitFor();
    // The name is text: the tags in it are shown, not made elements.
    expect(await document.locator('h2').innerText()).toBe('Launch <b>plan</b>');
    const fold = document.locator('details.document-text');
    expect(await fold.getAttribute('open')).toBeNull();
    expect(await fold.locator('.markdown').isVisible()).toBe(false);
    await fold.locator('summary').click();
    const text = fold.locator('.markdown');
    expect(await text.isVisible()).toBe(true);
    expect(await text.locator('h1').innerText()).toBe('Launch plan');
    expect(await text.locator('strong').first().innerText()).toBe('Owner');
    expect(await text.locator('li').count()).toBe(30);
    expect(await text.locator('script, [onerror]').count()).toBe(0);
    expect(await text.locator('a[href^="javascript"]').count()).toBe(0);
    await page.waitForTimeout(200);
    expect(await page.evaluate(() => (window as { __xss?: string }).__xss)).toBeUndefined();
    await page.context().close();
  });

  it('has no serious accessibility fault and fits every size, light and dark', async () => {
    const failures: string[] = [];
    for (const scheme of ['light', 'dark'] as const)
      for (const width of [1280, 390])
        for (const [name, id] of [
          ['canvas', CANVAS],
          ['canvas-long', HOSTILE],
        ] as const) {
          const page = await open(id, width, scheme);
          await page.locator('section.document').first().waitFor();
          // The long one open, so its text is measured and checked too.
          for (const fold of await page.locator('details.document-text').all())
            await fold.locator('summary').click();
          await page.screenshot({
            path: join(SHOTS, `${name}-${String(width)}-${scheme}.png`),
            fullPage: true,
          });
          failures.push(...(await pageFaults(page, `${name} ${String(width)} ${scheme}`)));
          await page.context().close();
        }
    expect(failures).toEqual([]);
  }, 120_000);
});
