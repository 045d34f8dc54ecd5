import type { ChildProcess } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../../scripts/chromium.mjs';
import { Neo4jStore } from '../../src/stores/neo4j/neo4j-store.js';
import { cleanUp } from '../support/clean-up.js';
import { tempDir } from '../support/convert-to-temp.js';
import { writeListExport } from '../support/list-fixtures.js';
import { useNeo4j } from '../support/neo4j-shared.js';
import { startServe } from '../support/serve-cli.js';
import { ROOT, fixturesOf } from '../support/shared.js';

/** The conversation list served from a real Neo4j 5 gives what the embedded store gives. */
const CLI = join(ROOT, 'dist', 'cli', 'main.js');
const neo4j = useNeo4j();

let embedded: { server: ChildProcess; base: string };
let graph: { server: ChildProcess; base: string };
let browser: Browser;

beforeAll(async () => {
  const empty = await Neo4jStore.open(neo4j.target);
  await empty.clear();
  await empty.close();
  const dir = tempDir();
  const data = join(dir, 'data');
  const input = [writeListExport(dir), ...fixturesOf('claude-ai')];
  const env = { ...process.env, NEO4J_PASSWORD: neo4j.target.password };
  execFileSync('node', [CLI, 'import', ...input, '--data-dir', data, '--quiet']);
  execFileSync(
    'node',
    [
      CLI,
      'import',
      ...input,
      '--data-dir',
      join(dir, 'other'),
      '--neo4j',
      neo4j.target.url,
      '--quiet',
    ],
    { env },
  );
  embedded = await startServe(data);
  graph = await startServe(join(dir, 'other'), env, ['--neo4j', neo4j.target.url]);
  browser = await launchChromium();
}, 240_000);

afterAll(
  cleanUp(async () => {
    await browser.close();
    embedded.server.kill();
    graph.server.kill();
  }),
);

async function pages(base: string, query: string): Promise<unknown[]> {
  const all: unknown[] = [];
  let after = '';
  for (let turn = 0; turn < 10; turn++) {
    const answer = (await (
      await fetch(`${base}/api/conversations?${query}&limit=20${after}`)
    ).json()) as { items: unknown[]; total: number; nextCursor: string | null };
    all.push({ total: answer.total }, ...answer.items);
    if (answer.nextCursor === null) return all;
    after = `&after=${encodeURIComponent(answer.nextCursor)}`;
  }
  throw new Error('more than 10 pages');
}

describe('the conversation list on Neo4j', () => {
  it('gives the same items, page by page, in every sort, as the embedded store', async () => {
    for (const query of [
      'minMessages=1',
      'sort=created',
      'sort=oldest&source=chatgpt',
      'sort=title&minMessages=1',
      'sort=messages',
    ]) {
      const fromGraph = await pages(graph.base, query);
      expect(fromGraph.length, query).toBeGreaterThan(20);
      expect(fromGraph, query).toEqual(await pages(embedded.base, query));
    }
  });

  it('draws the same rows and periods in Chromium', async () => {
    const shown = async (base: string): Promise<string[]> => {
      const page = await browser.newPage({ locale: 'en-GB' });
      await page.goto(`${base}/`);
      await page.waitForSelector('.conversation-row');
      const text = await page.locator('#view h2.period, #view .conversation-row').allInnerTexts();
      await page.close();
      return text;
    };
    const fromGraph = await shown(graph.base);
    expect(fromGraph.length).toBeGreaterThan(50);
    expect(fromGraph).toEqual(await shown(embedded.base));
  });
});
