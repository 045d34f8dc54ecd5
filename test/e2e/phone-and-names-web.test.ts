import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.mjs';
import { importSamples } from '../support/bundled-samples.js';
import { cleanUp } from '../support/clean-up.js';
import { tempDir } from '../support/convert-to-temp.js';
import { testModelDir } from '../support/embedding-model.js';
import { CLI } from '../support/run-cli.js';
import { startServe } from '../support/serve-cli.js';
import { ROOT } from '../support/shared.js';
import { pageFaults } from './page-faults.js';

/**
 * The web app as a person uses it on a phone and on a laptop (issue 43, point 8): the search
 * box keeps its width, the list's filters fold behind a button, the title filters as it is
 * typed, graph labels are readable as the graph opens, topics are named by what they are, the
 * Overview's legend says its numbers, and the Cypher console's header fits. On the bundled
 * samples, embedded with the real model, served by the built CLI, in Debian's Chromium.
 */
const SHOTS = join(ROOT, 'test-output', 'screenshots');
const env = { ...process.env, CHATGRAPH_MODEL_DIR: testModelDir() };
// The samples' Japan trip (ten messages, a fork, a web search).
const TRIP = 'a6dac0c6-061d-4b9b-821b-44cd531b4107';

let server: ChildProcess | undefined;
let browser: Browser | undefined;
let base = '';

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const data = join(tempDir(), 'data');
  importSamples(data);
  execFileSync(process.execPath, [CLI, 'embed', '--data-dir', data, '-q'], { env });
  ({ server, base } = await startServe(data, env));
  browser = await launchChromium();
}, 180_000);

afterAll(
  cleanUp(async () => {
    server?.kill();
    await browser?.close();
  }),
);

async function open(
  route: string,
  width = 1280,
  scheme: 'light' | 'dark' = 'light',
): Promise<Page> {
  if (!browser) throw new Error('Chromium did not start');
  const context = await browser.newContext({
    viewport: { width, height: 844 },
    colorScheme: scheme,
  });
  const page = await context.newPage();
  await page.goto(`${base}/#${route}`);
  await page.waitForFunction(() => {
    const view = document.getElementById('view');
    return view !== null && view.dataset.loading === undefined && view.childElementCount > 0;
  });
  return page;
}

const widthOf = async (page: Page, selector: string): Promise<number> =>
  (await page.locator(selector).boundingBox())?.width ?? 0;

describe('on a 390 px phone', () => {
  it('the search box keeps the row, the mode selector only its text', async () => {
    const page = await open('/search', 390);
    const row = await widthOf(page, '#view .filters');
    expect(await widthOf(page, '#search-input')).toBeGreaterThanOrEqual(row * 0.95);
    expect(await widthOf(page, '#search-mode')).toBeLessThan(row * 0.8);
    await page.context().close();
  });

  it("search's source, role and dates fold behind a button, the answers starting in the top half", async () => {
    const page = await open('/search?q=sourdough', 390);
    const toggle = page.locator('#search-filters .filters-toggle');
    expect(await toggle.isVisible()).toBe(true);
    expect(await toggle.textContent()).toBe('Filters');
    expect(await page.locator('#search-filters select[name=role]').isVisible()).toBe(false);
    expect(await page.locator('#search-mode').isVisible()).toBe(true);
    // The mode and the button share the row under the box.
    const [mode, button] = await Promise.all([
      page.locator('#search-mode').boundingBox(),
      toggle.boundingBox(),
    ]);
    expect(Math.abs((mode?.y ?? 0) - (button?.y ?? 100))).toBeLessThan(8);
    // Under the two rows and the summary (four lines at this width), the first answer starts in
    // the top half; with the filters out it began at 56% of the screen.
    const first = page.locator('#search-results .hit-card').first();
    await first.waitFor();
    expect((await first.boundingBox())?.y ?? 1000).toBeLessThan(844 * 0.5);
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await page.selectOption('#search-filters select[name=role]', 'user');
    expect(await toggle.textContent()).toBe('Filters (1)');
    await page.waitForFunction(() => location.hash.includes('role=user'));
    await page.context().close();
  });

  it('a search opened with a filter in its address says so on the folded button', async () => {
    const page = await open('/search?q=sourdough&source=chatgpt&since=2025-01-01', 390);
    expect(await page.locator('#search-filters .filters-toggle').textContent()).toBe('Filters (2)');
    // On a laptop the same filters stand in the row and no button is shown.
    const wide = await open('/search?q=sourdough', 1280);
    expect(await wide.locator('#search-filters .filters-toggle').isVisible()).toBe(false);
    expect(await wide.locator('#search-filters select[name=role]').isVisible()).toBe(true);
    await page.context().close();
    await wide.context().close();
  });

  it("the list's filters fold behind a button, and the list starts near the top", async () => {
    const page = await open('/', 390);
    const toggle = page.locator('#list-filters .filters-toggle');
    expect(await toggle.isVisible()).toBe(true);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    expect(await page.locator('#list-filters select[name=source]').isVisible()).toBe(false);
    // The title box stays out, beside the button.
    expect(await page.locator('#list-filters input[name=title]').isVisible()).toBe(true);
    const first = await page.locator('.conversation-row').first().boundingBox();
    expect(first?.y ?? 1000).toBeLessThan(844 * 0.4);
    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    expect(await page.locator('#list-filters select[name=source]').isVisible()).toBe(true);
    await page.context().close();
  });

  it("the Cypher console's results header fits the screen", async () => {
    const page = await open('/cypher', 390);
    await page.click('#cypher-run');
    await page.locator('.cypher-table th').first().waitFor();
    const fits = await page.evaluate(() => {
      const table = document.querySelector<HTMLElement>('.cypher-table');
      const heads = [...document.querySelectorAll<HTMLElement>('.cypher-table th')];
      return {
        overflow: (table?.scrollWidth ?? 0) - (table?.clientWidth ?? 0),
        outside: heads
          .filter((th) => th.getBoundingClientRect().right > window.innerWidth)
          .map((th) => th.textContent),
      };
    });
    expect(fits).toEqual({ overflow: 0, outside: [] });
    await page.context().close();
  });
});

describe('on a laptop', () => {
  it('the title filters the list as it is typed, the box keeping the focus', async () => {
    const page = await open('/', 1280);
    const all = await page.locator('.conversation-row').count();
    await page
      .locator('#list-filters input[name=title]')
      .pressSequentially('sourdo', { delay: 40 });
    await page.waitForFunction(() => location.hash.includes('title=sourdo'));
    await page.waitForFunction(() => document.querySelectorAll('.conversation-row').length === 1);
    const titles = await page.locator('a.conversation-link').allTextContents();
    expect(titles).toEqual(['Sourdough Starter Not Rising']);
    expect(all).toBeGreaterThan(1);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('title');
    // Emptied, the list is whole again.
    await page.locator('#list-filters input[name=title]').fill('');
    await page.waitForFunction(
      (n) => document.querySelectorAll('.conversation-row').length === n,
      all,
    );
    await page.context().close();
  });

  it("the Overview's legend says each source's number before any hovering", async () => {
    const page = await open('/overview', 1280);
    await page.waitForSelector('#timeline .u-legend');
    const legend = await page.evaluate(() =>
      [...document.querySelectorAll('#timeline .u-legend .u-series')].map((row) => [
        row.querySelector('.u-label')?.textContent ?? '',
        row.querySelector('.u-value')?.textContent ?? '',
      ]),
    );
    const stats = (await (await fetch(`${base}/api/overview`)).json()) as {
      bySource: { source: string; conversations: number }[];
    };
    expect(legend[0]).toEqual(['Month', 'all']);
    expect(Object.fromEntries(legend.slice(1))).toEqual(
      Object.fromEntries(stats.bySource.map((s) => [s.source, String(s.conversations)])),
    );
    await page.context().close();
  });
});

describe('at both sizes', () => {
  it('the graph opens with its labels readable: 11 px or more on screen', async () => {
    for (const width of [1280, 390]) {
      const page = await open(`/graph/${TRIP}`, width);
      await page.waitForSelector('#graph-canvas canvas');
      const sizes = await page.evaluate(() => {
        const cy = (
          window as unknown as {
            chatgraphGraph: { nodes(): { toArray(): { renderedStyle(k: string): string }[] } };
          }
        ).chatgraphGraph;
        return cy
          .nodes()
          .toArray()
          .map((n) => parseFloat(n.renderedStyle('font-size')));
      });
      expect(sizes.length).toBeGreaterThan(5);
      expect(Math.min(...sizes), `${String(width)} px`).toBeGreaterThanOrEqual(11);
      await page.context().close();
    }
  });

  it('names each topic by its most central conversation and its most distinctive words', async () => {
    const map = (await (await fetch(`${base}/api/topics`)).json()) as {
      clusters: {
        words: string[];
        central: { title: string } | null;
        conversations: { title: string }[];
      }[];
    };
    expect(map.clusters.length).toBeGreaterThan(1);
    const page = await open('/topics', 1280);
    const buttons = page.locator('#topic-list button.topic');
    expect(await buttons.count()).toBe(map.clusters.length);
    for (const [i, cluster] of map.clusters.entries()) {
      // The most central conversation is the one listed first, nearest the centre.
      expect(cluster.central?.title).toBe(cluster.conversations[0]?.title);
      const title = (await buttons.nth(i).locator('.topic-title').textContent()) ?? '';
      expect((cluster.central?.title ?? '').startsWith(title.replace(/…$/, ''))).toBe(true);
      expect(await buttons.nth(i).locator('.topic-words').textContent()).toBe(
        cluster.words.join(' · '),
      );
      // No word of chat names a topic.
      for (const word of cluster.words)
        expect(['not', 'says', 'around', 'day', 'days']).not.toContain(word);
    }
    await page.context().close();
  });

  it('every changed page, light and dark, fits and has no serious accessibility fault', async () => {
    const failures: string[] = [];
    for (const scheme of ['light', 'dark'] as const)
      for (const width of [390, 1280])
        // Each page with what shows it drawn, and what a click on `act` puts on the page.
        for (const [name, route, drawn, act, acted] of [
          ['honest-list', '/', '.conversation-row', undefined, undefined],
          [
            'honest-list-filters',
            '/',
            '.conversation-row',
            '#list-filters .filters-toggle',
            '#list-filters .filters-toggle[aria-expanded=true]',
          ],
          ['honest-search', '/search?q=japan', '.hit-card', undefined, undefined],
          ['honest-graph', `/graph/${TRIP}`, '#graph-canvas canvas', undefined, undefined],
          [
            'honest-topics',
            '/topics',
            '#topic-list button.topic',
            '#topic-list button.topic',
            '#topic-panel h2',
          ],
          ['honest-overview', '/overview', '#timeline canvas', undefined, undefined],
          ['honest-cypher', '/cypher', '#cypher-query', '#cypher-run', '#cypher-results table'],
          [
            'honest-conversation',
            '/c/56d81554-ad3d-4cf5-8cd5-949d638acbae',
            'article.message',
            undefined,
            undefined,
          ],
        ] as const) {
          const page = await open(route, width, scheme);
          await page.waitForSelector(drawn);
          if (act !== undefined && (width === 390 || !act.includes('toggle'))) {
            await page.click(act);
            await page.waitForSelector(acted);
          }
          await page.screenshot({ path: join(SHOTS, `${name}-${String(width)}-${scheme}.png`) });
          failures.push(...(await pageFaults(page, `${name} ${String(width)} ${scheme}`)));
          await page.context().close();
        }
    expect(failures).toEqual([]);
  }, 240_000);
});
