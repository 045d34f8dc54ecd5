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
 * The graph view, the timeline and the topic map on the bundled samples, imported and embedded
 * with the real model, served by the built CLI and used in Debian's Chromium.
 */
const SHOTS = join(ROOT, 'test-output', 'screenshots');
const env = { ...process.env, CHATGRAPH_MODEL_DIR: testModelDir() };
// The samples' Japan trip: an answer the user regenerated makes its first question a fork.
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
    viewport: { width, height: 860 },
    colorScheme: scheme,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  await page.goto(`${base}/#${route}`);
  await page.waitForFunction(() => {
    const view = document.getElementById('view');
    return view !== null && view.dataset.loading === undefined && view.childElementCount > 0;
  });
  expect(errors).toEqual([]);
  return page;
}

interface Drawn {
  id: string;
  y: number;
  classes: string[];
  label: { x1: number; x2: number; y1: number; y2: number };
}

// Every drawn node of the graph view: its place, its classes and its label's box.
const drawnNodes = (page: Page): Promise<Drawn[]> =>
  page.evaluate(() => {
    interface Node {
      id(): string;
      position(): { y: number };
      classes(): string[];
      boundingBox(o: object): { x1: number; x2: number; y1: number; y2: number };
      visible(): boolean;
    }
    const cy = (window as unknown as { chatgraphGraph: { nodes(): { toArray(): Node[] } } })
      .chatgraphGraph;
    return cy
      .nodes()
      .toArray()
      .map((n) => ({
        id: n.id(),
        y: n.position().y,
        classes: n.classes(),
        label: n.boundingBox({ includeNodes: false, includeEdges: false, includeLabels: true }),
      }));
  });

describe('the graph view', () => {
  it('draws the conversation top-down by reply, its fork marked, its labels apart', async () => {
    const page = await open(`/graph/${TRIP}`);
    await page.waitForFunction(
      () =>
        ((
          window as unknown as { chatgraphGraph?: { nodes(): { length: number } } }
        ).chatgraphGraph?.nodes().length ?? 0) > 0,
    );
    const nodes = await drawnNodes(page);
    const replies = await page.evaluate(() =>
      (
        window as unknown as {
          chatgraphGraph: { edges(s: string): { toArray(): { data(k: string): string }[] } };
        }
      ).chatgraphGraph
        .edges('[kind = "REPLY_TO"]')
        .toArray()
        .map((e) => [e.data('source'), e.data('target')]),
    );
    const at = new Map(nodes.map((n) => [n.id, n]));
    // Every reply stands below the message it answers.
    expect(replies.length).toBeGreaterThan(5);
    for (const [parent, child] of replies)
      expect(at.get(child ?? '')?.y ?? 0).toBeGreaterThan(at.get(parent ?? '')?.y ?? 0);
    // The regenerated answer: its question is a fork, and the answer not shown is dimmed.
    const forks = nodes.filter((n) => n.classes.includes('fork'));
    expect(forks).toHaveLength(1);
    const fork = forks[0]?.id ?? '';
    const answers = replies
      .filter(([parent]) => parent === fork)
      .map(([, child]) => at.get(child ?? ''));
    expect(answers.map((a) => a?.classes.includes('thread')).sort()).toEqual([false, true]);
    expect(answers.some((a) => a?.classes.includes('alternative'))).toBe(true);
    // The labels of one layer do not overlap.
    const layers = new Map<number, Drawn[]>();
    for (const n of nodes) layers.set(Math.round(n.y), [...(layers.get(Math.round(n.y)) ?? []), n]);
    for (const layer of layers.values())
      for (const [i, a] of layer.entries())
        for (const b of layer.slice(i + 1))
          expect(a.label.x2 <= b.label.x1 || b.label.x2 <= a.label.x1, `${a.id} and ${b.id}`).toBe(
            true,
          );
    // The legend names the kinds drawn; edge labels are off until asked for.
    const legend = await page.locator('#graph-legend li').allTextContents();
    expect(legend).toEqual(
      expect.arrayContaining(['User message', 'Assistant message', 'Tool call']),
    );
    const labelled = (): Promise<number> =>
      page.evaluate(
        () =>
          (
            window as unknown as { chatgraphGraph: { edges(s: string): { length: number } } }
          ).chatgraphGraph.edges('.labelled').length,
      );
    expect(await labelled()).toBe(0);
    await page.check('#graph-edge-labels');
    expect(await labelled()).toBeGreaterThan(0);
    await page.screenshot({ path: join(SHOTS, 'graph-tree.png') });
    await page.context().close();
  });

  it('gives the canvas the width and a usable height on a 390 px phone', async () => {
    const page = await open(`/graph/${TRIP}`, 390);
    await page.waitForSelector('#graph-canvas canvas');
    const box = await page.locator('#graph-canvas').boundingBox();
    expect(box?.height ?? 0).toBeGreaterThanOrEqual(300);
    expect(box?.width ?? 0).toBeGreaterThan(340);
    await page.screenshot({ path: join(SHOTS, 'graph-tree-390.png') });
    await page.context().close();
  });
});

describe('the timeline', () => {
  it('puts the months on a time axis: distances on screen follow time', async () => {
    const page = await open('/overview', 390);
    await page.waitForSelector('#timeline canvas');
    const axis = await page.evaluate(() => {
      const plot = (
        window as unknown as {
          chatgraphTimeline: {
            data: number[][];
            scales: { x: { time?: boolean } };
            valToPos(v: number, s: string): number;
          };
        }
      ).chatgraphTimeline;
      const times = plot.data[0] ?? [];
      return {
        time: plot.scales.x.time === true,
        times,
        at: times.map((t) => plot.valToPos(t, 'x')),
        width: [document.documentElement.scrollWidth, window.innerWidth],
      };
    });
    expect(axis.time).toBe(true);
    expect(axis.times.length).toBeGreaterThan(6);
    // February is shorter than the other months: on a time axis the gaps follow the days.
    const first = axis.times[0] ?? 0;
    const span = (axis.times.at(-1) ?? 0) - first;
    const pixels = (axis.at.at(-1) ?? 0) - (axis.at[0] ?? 0);
    axis.times.forEach((t, i) => {
      expect((axis.at[i] ?? 0) - (axis.at[0] ?? 0)).toBeCloseTo(((t - first) / span) * pixels, 0);
    });
    const [scrollWidth, innerWidth] = axis.width;
    expect(scrollWidth).toBeLessThanOrEqual(innerWidth ?? 0);
    await page.context().close();
  });
});

describe('the topic map', () => {
  it('shows named clusters; a click lists their conversations, which open', async () => {
    const page = await open('/topics');
    const topics = page.locator('#topic-list button.topic');
    expect(await topics.count()).toBeGreaterThan(1);
    for (const name of await topics.allTextContents()) expect(name).toMatch(/\p{L}{3,}/u);
    await page.waitForSelector('#topic-canvas canvas');
    await topics.first().click();
    const links = page.locator('#topic-panel ul.topic-conversations a');
    await links.first().waitFor();
    expect(await links.count()).toBeGreaterThan(1);
    const title = (await links.first().textContent()) ?? '';
    await page.screenshot({ path: join(SHOTS, 'topics.png') });
    await links.first().click();
    await page.getByRole('heading', { name: title }).first().waitFor();
    await page.context().close();
  });

  it('has no serious accessibility fault and fits every size, light and dark', async () => {
    const failures: string[] = [];
    for (const scheme of ['light', 'dark'] as const)
      for (const width of [1280, 390])
        for (const [name, route, drawn] of [
          ['topic-map', '/topics', '#topic-canvas canvas'],
          ['graph-tree', `/graph/${TRIP}`, '#graph-canvas canvas'],
          ['timeline', '/overview', '#timeline canvas'],
        ] as const) {
          const page = await open(route, width, scheme);
          await page.waitForSelector(drawn);
          await page.screenshot({ path: join(SHOTS, `${name}-${String(width)}-${scheme}.png`) });
          failures.push(...(await pageFaults(page, `${name} ${String(width)} ${scheme}`)));
          await page.context().close();
        }
    expect(failures).toEqual([]);
  }, 120_000);
});
