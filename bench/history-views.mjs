// The history views benchmark (issue 25): how long the graph of a 500-message conversation takes
// in Debian's Chromium from navigation until it is drawn, and how long the topic map takes to
// build over 10,000 embedded conversations. The topic map's vectors are synthetic (one a text,
// near one of 20 random directions, 384 dimensions): embedding 10,000 conversations with the
// real model would take hours and the clustering does not care where the numbers came from.
// `node bench/history-views.mjs [--conversations N] [--turns T]`.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../scripts/chromium.mjs';
import { buildTopicMap } from '../dist/recall/topic-map.js';
import { Folder } from '../dist/folder/folder.js';
import { writeChatgptExport } from '../dist/sample/write-samples.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) =>
  args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback;
const conversations = option('--conversations', 10_000);
const turns = option('--turns', 192);
const work = join(root, '.bench');
mkdirSync(work, { recursive: true });
const cli = join(root, 'dist', 'cli', 'main.js');
const say = (line) => process.stdout.write(`${line}\n`);

async function importOnce(name, options) {
  const exportPath = join(work, `${name}.zip`);
  if (!existsSync(exportPath)) await writeChatgptExport(exportPath, options);
  const data = join(work, `${name}-data`);
  if (!existsSync(join(data, 'chatgraph.sqlite')))
    execFileSync(process.execPath, [cli, 'import', exportPath, '--data-dir', data, '-q']);
  return data;
}

// (In the page's callbacks, globalThis is the page's window: the benches are typed for node.)
async function graphFirstPaint() {
  const data = await importOnce(`graph-${turns}-turns`, {
    seed: 7,
    conversations: 20,
    longTurns: turns,
  });
  const server = spawn(process.execPath, [cli, 'serve', '--data-dir', data, '--port', '0'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const base = await new Promise((resolve) => {
    let out = '';
    server.stdout.on('data', (chunk) => {
      out += chunk.toString();
      const match = /web app at (http:\/\/\S+)/.exec(out);
      if (match?.[1]) resolve(match[1].replace(/\/$/, ''));
    });
  });
  const browser = await launchChromium();
  try {
    const list = /** @type {{items: {id: string, messageCount: number}[]}} */ (
      await (await fetch(`${base}/api/conversations?sort=most-messages&limit=1`)).json()
    );
    const longest = list.items[0];
    if (!longest) throw new Error('the graph bench data folder holds no conversation');
    const times = [];
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    for (let i = 0; i < 5; i++) {
      const page = await context.newPage();
      await page.goto(`${base}/#/graph/${longest.id}`, { waitUntil: 'commit' });
      await page.waitForFunction(
        () => /** @type {any} */ (globalThis.chatgraphGraph?.nodes().length ?? 0) > 0,
      );
      // The frame after the layout: the graph is on screen.
      times.push(
        Number(
          await page.evaluate(
            () =>
              new Promise((resolve) =>
                /** @type {any} */ (globalThis).requestAnimationFrame(() =>
                  resolve(performance.now()),
                ),
              ),
          ),
        ),
      );
      const nodes = await page.evaluate(
        () => /** @type {any} */ (globalThis).chatgraphGraph.nodes().length,
      );
      if (i === 0)
        say(`graph of a ${longest.messageCount}-message conversation: ${nodes} nodes drawn`);
      await page.close();
    }
    await context.close();
    say(
      `  first paint: first (cold) ${(times[0] ?? NaN).toFixed(0)} ms, then ${times
        .slice(1)
        .map((t) => t.toFixed(0))
        .join(', ')} ms`,
    );
  } finally {
    await browser.close();
    server.kill();
  }
}

// Deterministic numbers (mulberry32) for the synthetic vectors.
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function topicMapBuild() {
  const data = await importOnce(`topics-${conversations}`, { seed: 5, conversations });
  const store = await new Folder(data).openStore();
  try {
    const model = await store.vectors.model();
    if (model?.id !== 'bench-synthetic') {
      const next = random(3);
      const dims = 384;
      const centres = Array.from({ length: 20 }, () =>
        Float32Array.from({ length: dims }, () => next() - 0.5),
      );
      await store.vectors.reset({ id: 'bench-synthetic', dimensions: dims });
      const started = performance.now();
      for (const { owner, hash } of await store.vectors.pending()) {
        const centre = centres[Math.floor(next() * centres.length)] ?? new Float32Array(dims);
        const texts = (await store.vectors.texts(owner)).slice(0, 6);
        const units = texts.map((t, i) => ({
          ...t,
          chunk: 0,
          start: 0,
          end: t.text.length,
          textHash: `${owner}-${i}`,
          vector: centre.map((c) => c + (next() - 0.5) * 0.6),
        }));
        await store.vectors.write(owner, hash, units);
      }
      say(`synthetic vectors written in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
    for (let i = 0; i < 3; i++) {
      const started = performance.now();
      const map = await buildTopicMap(store);
      say(
        `topic map of ${map.conversations} conversations, ${map.clusters.length} topics: ${(performance.now() - started).toFixed(0)} ms`,
      );
    }
  } finally {
    await store.close();
  }
}

if (!args.includes('--topics-only')) await graphFirstPaint();
if (!args.includes('--graph-only')) await topicMapBuild();
