import { execFileSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.mjs';
import { layoutOf } from '../../src/folder/layout.js';
import { Neo4jStore } from '../../src/stores/neo4j/neo4j-store.js';
import { SAMPLE_INPUTS, importSamples } from '../support/bundled-samples.js';
import { cleanUp } from '../support/clean-up.js';
import { tempDir } from '../support/convert-to-temp.js';
import { testModelDir } from '../support/embedding-model.js';
import { useNeo4j } from '../support/neo4j-shared.js';
import { CLI } from '../support/run-cli.js';
import { startServe } from '../support/serve-cli.js';
import { topicMap } from '../../src/web/api-overview-responses.js';
import { conversationPage } from '../../src/web/api-responses.js';
import { ROOT } from '../support/shared.js';
import { pageFaults } from './page-faults.js';

/**
 * Every page of the web app served from a real Neo4j 5, next to the same samples in the embedded
 * store: the pages that read the store (the overview's timeline and the topic map among them,
 * which read per-month counts and conversation vectors) answer as the embedded store does, and
 * pass the product checks (no console error, nothing wider than the viewport, no serious
 * accessibility fault) at desktop and phone widths, light and dark.
 */
const SHOTS = join(ROOT, 'test-output', 'screenshots', 'neo4j');
const neo4j = useNeo4j();
// The samples' Japan trip: a conversation with a fork.
const TRIP = 'a6dac0c6-061d-4b9b-821b-44cd531b4107';
// The samples' mortgage question: a code-interpreter cell in Python, then its output.
const MORTGAGE = 'c1e79006-eb44-4d78-8079-484a25619dc7';

let embedded: { server: ChildProcess; base: string };
let graph: { server: ChildProcess; base: string };
let browser: Browser;

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  const empty = await Neo4jStore.open(neo4j.target);
  await empty.clear();
  await empty.close();
  const dir = tempDir();
  const env = {
    ...process.env,
    CHATGRAPH_MODEL_DIR: testModelDir(),
    NEO4J_PASSWORD: neo4j.target.password,
  };
  const run = (args: string[]): void => {
    execFileSync(process.execPath, [CLI, ...args, '-q'], { env });
  };
  const local = join(dir, 'local');
  importSamples(local);
  run(['embed', '--data-dir', local]);
  const remote = join(dir, 'remote');
  const onNeo4j = ['--data-dir', remote, '--neo4j', neo4j.target.url];
  run(['import', ...SAMPLE_INPUTS, ...onNeo4j]);
  // The same texts, the same model: the local folder's vectors (cached by model and text) are
  // what the model would compute again. The embed still reads every text from Neo4j and writes
  // every vector there; only the model's work is not done twice.
  for (const suffix of ['', '-wal'])
    if (existsSync(`${layoutOf(local).vectorCache}${suffix}`))
      copyFileSync(
        `${layoutOf(local).vectorCache}${suffix}`,
        `${layoutOf(remote).vectorCache}${suffix}`,
      );
  run(['embed', ...onNeo4j]);
  embedded = await startServe(local, env);
  graph = await startServe(remote, env, ['--neo4j', neo4j.target.url]);
  browser = await launchChromium();
}, 300_000);

afterAll(
  cleanUp(async () => {
    await browser.close();
    embedded.server.kill();
    graph.server.kill();
  }),
);

const json = async (base: string, path: string): Promise<unknown> =>
  (await fetch(`${base}${path}`)).json();

describe('the pages that read the store, on Neo4j', () => {
  it('give the overview (per-month counts of the timeline) the embedded store gives', async () => {
    const fromGraph = await json(graph.base, '/api/overview');
    expect(JSON.stringify(fromGraph)).toContain('2026');
    expect(fromGraph).toEqual(await json(embedded.base, '/api/overview'));
  });

  it('give a topic map from the conversation vectors: every conversation in one named topic', async () => {
    const map = topicMap.parse(await json(graph.base, '/api/topics'));
    expect(map.embedded).toBe(true);
    expect(map.clusters.length).toBeGreaterThan(1);
    for (const cluster of map.clusters) expect(cluster.name).toMatch(/\p{L}{3,}/u);
    const placed = map.clusters.flatMap((cluster) => cluster.conversations.map((c) => c.id));
    expect(new Set(placed).size).toBe(placed.length);
    expect(placed.length).toBe(map.conversations);
    // The same vectors in both stores: the same topics, named alike, holding the same conversations.
    const local = topicMap.parse(await json(embedded.base, '/api/topics'));
    const shape = (m: typeof map): string[] =>
      m.clusters
        .map(
          (c) =>
            `${c.name}: ${c.conversations
              .map((x) => x.id)
              .sort()
              .join(' ')}`,
        )
        .sort();
    expect(shape(map)).toEqual(shape(local));
  });
});

async function open(route: string, width: number, scheme: 'light' | 'dark'): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width, height: 860 },
    colorScheme: scheme,
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(`${graph.base}/#${route}`);
  await page.waitForFunction(() => {
    const view = document.getElementById('view');
    return view !== null && view.dataset.loading === undefined && view.childElementCount > 0;
  });
  expect(errors, route).toEqual([]);
  return page;
}

describe('every page on Neo4j, in Chromium', () => {
  it('draws what the store holds, fits every size and has no serious accessibility fault', async () => {
    const failures: string[] = [];
    const pages = [
      ['list', '/', '.conversation-row'],
      ['conversation', `/c/${TRIP}`, 'article.message'],
      ['graph', `/graph/${TRIP}`, '#graph-canvas canvas'],
      ['search', '/search?q=sourdough', '.hit-card'],
      ['memories', '/memories', '#view'],
      ['overview', '/overview', '#timeline canvas'],
      ['topics', '/topics', '#topic-list button.topic'],
      ['cypher', '/cypher', '#cypher-query'],
    ] as const;
    for (const scheme of ['light', 'dark'] as const)
      for (const width of [1280, 390])
        for (const [name, route, drawn] of pages) {
          const page = await open(route, width, scheme);
          await page.waitForSelector(drawn);
          await page.screenshot({ path: join(SHOTS, `${name}-${String(width)}-${scheme}.png`) });
          failures.push(...(await pageFaults(page, `${name} ${String(width)} ${scheme}`)));
          await page.context().close();
        }
    expect(failures).toEqual([]);
  }, 240_000);
});

describe('reading Neo4j in Chromium', () => {
  it('runs a seed query in the Cypher console on Neo4j, and refuses a write', async () => {
    const page = await open('/cypher', 1280, 'light');
    await page.selectOption('#cypher-examples', { label: 'Cross-platform count' });
    await page.click('#cypher-run');
    await page.waitForSelector('#cypher-results table');
    const sources = await page.locator('#cypher-results td:first-child').allTextContents();
    expect(sources.sort()).toEqual(['chatgpt', 'claude-ai', 'claude-code']);
    await page.fill('#cypher-query', 'MATCH (n:Message) DETACH DELETE n');
    await page.click('#cypher-run');
    await page.locator('#cypher-results .error', { hasText: /writes are refused/ }).waitFor();
    await page.context().close();
    const left = await json(graph.base, '/api/overview');
    expect(left).toEqual(await json(embedded.base, '/api/overview'));
  });

  it('draws a code-interpreter cell as code, once, in its language', async () => {
    const view = conversationPage.parse(await json(graph.base, `/api/conversations/${MORTGAGE}`));
    const code = view.messages.find((m) => m.code !== null);
    expect(code?.code?.language).toBe('python');
    const cell = code?.content ?? '';
    expect(cell).toContain('def run(extra):\n    b, months, interest');
    const page = await open(`/c/${MORTGAGE}`, 1280, 'light');
    const article = page.locator('article.message', { hasText: 'def run(extra)' });
    await article.first().waitFor();
    expect(await article.count()).toBe(1);
    // Its lines and indentation kept, highlighted as Python, no heading, no second copy.
    expect(await article.locator('h1, h2, h3').count()).toBe(0);
    expect(await article.locator('pre').count()).toBe(1);
    expect(await article.locator('pre').textContent()).toBe(cell);
    expect(await article.locator('.code-language').textContent()).toBe('python');
    expect(await article.locator('.hljs-keyword').count()).toBeGreaterThan(0);
    const shown = await page.evaluate(() => document.body.innerText);
    expect(shown.split('def run(extra)').length - 1).toBe(1);
    expect(await article.locator('details.tool-call').count()).toBe(0);
    await page.screenshot({ path: join(SHOTS, 'code-cell.png') });
    await page.context().close();
  });
});
