// The web app benchmark (issue: the web app): with 10,000 conversations imported, how long
// the page takes in Debian's Chromium from navigation until the first page of conversations
// is drawn, the next pages as the list is scrolled, a page deep in the list by cursor and by
// offset, and the same for a long conversation (about 2,000 messages), the graph of a
// 500-message one, a search and the overview. `node bench/web.mjs [--conversations N]
// [--long-turns T] [--tiny]`: `--tiny` imports N conversations of one question and answer each
// (what the list costs grows with conversations, not with their length; importing 100,000 full
// ones takes over an hour here), and the long conversation and the 500-message one beside them.
import { execFileSync, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../scripts/chromium.mjs';
import { writeChatgptExport } from '../dist/sample/write-samples.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) =>
  args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback;
const conversations = option('--conversations', 10_000);
const longTurns = option('--long-turns', 1000);
const tiny = args.includes('--tiny');
const work = join(root, '.bench');
mkdirSync(work, { recursive: true });
const cli = join(root, 'dist', 'cli', 'main.js');
const say = (line) => process.stdout.write(`${line}\n`);

/** N ChatGPT conversations of one question and answer, an hour apart, as one JSON file. */
async function writeTinyExport(path, n) {
  const out = createWriteStream(path);
  const write = (text) =>
    out.write(text)
      ? Promise.resolve()
      : new Promise((resolve) => out.once('drain', () => resolve(undefined)));
  await write('[');
  for (let i = 0; i < n; i++) {
    const t = 1_600_000_000 + i * 3600;
    const message = (id, role, text, at) => ({
      id,
      author: { role },
      create_time: at,
      content: { content_type: 'text', parts: [text] },
      metadata: role === 'assistant' ? { model_slug: 'gpt-4o' } : {},
    });
    const conversation = {
      id: `tiny-${i}`,
      conversation_id: `tiny-${i}`,
      title: `Question ${i} about topic ${i % 97}`,
      create_time: t,
      update_time: t + 60,
      current_node: 'a',
      mapping: {
        root: { id: 'root', parent: null, children: ['u'], message: null },
        u: {
          id: 'u',
          parent: 'root',
          children: ['a'],
          message: message('u', 'user', `How do I do thing ${i}?`, t + 1),
        },
        a: {
          id: 'a',
          parent: 'u',
          children: [],
          message: message('a', 'assistant', `Like this, ${i}.`, t + 2),
        },
      },
    };
    await write(`${i === 0 ? '' : ','}${JSON.stringify(conversation)}`);
  }
  await write(']');
  await new Promise((resolve) => out.end(() => resolve(undefined)));
}

const exportPath = tiny
  ? join(work, `chatgpt-${conversations}-tiny.json`)
  : join(work, `chatgpt-${conversations}-conversations-long${longTurns}.zip`);
const started = Date.now();
if (!existsSync(exportPath)) {
  process.stderr.write(`generating ${exportPath}…\n`);
  if (tiny) await writeTinyExport(exportPath, conversations);
  else await writeChatgptExport(exportPath, { seed: 5, conversations, longTurns });
}
const generated = Date.now();
// The conversations the thread and graph timings open, each a generated export of one: the
// 192-turn one is the 500-message conversation of bench/history-views.mjs (the same seed), and
// the tiny run gets the long one its own conversations lack.
const extras = [
  { name: 'graph-192-turns-one', options: { seed: 7, conversations: 1, longTurns: 192 } },
  ...(tiny
    ? [{ name: `long-${longTurns}-one`, options: { seed: 5, conversations: 1, longTurns } }]
    : []),
];
const data = join(work, `web-data-${conversations}-${tiny ? 'tiny' : `long${longTurns}`}-g500`);
if (!existsSync(join(data, 'chatgraph.sqlite'))) {
  process.stderr.write(`importing into ${data}…\n`);
  execFileSync(process.execPath, [cli, 'import', exportPath, '--data-dir', data, '-q']);
  for (const extra of extras) {
    const path = join(work, `${extra.name}.zip`);
    if (!existsSync(path)) await writeChatgptExport(path, extra.options);
    execFileSync(process.execPath, [cli, 'import', path, '--data-dir', data, '-q']);
  }
  say(
    `generating took ${((generated - started) / 1000).toFixed(0)} s, importing ${((Date.now() - generated) / 1000).toFixed(0)} s`,
  );
}

const server = spawn(process.execPath, [cli, 'serve', '--data-dir', data, '--port', '0'], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
/** @type {string} */
const base = await new Promise((resolve) => {
  let out = '';
  server.stdout.on('data', (chunk) => {
    out += chunk.toString();
    const match = /web app at (http:\/\/\S+)/.exec(out);
    if (match?.[1]) resolve(match[1].replace(/\/$/, ''));
  });
});
const browser = await launchChromium();

// Milliseconds from navigation start until `selector` is on the page, in a fresh context
// (nothing cached) for the first load, then in the same context (the browser's cache warm).
async function loads(path, selector, times = 5) {
  const context = await browser.newContext();
  const result = [];
  for (let i = 0; i < times; i++) {
    const page = await context.newPage();
    await page.goto(`${base}${path}`, { waitUntil: 'commit' });
    await page.waitForSelector(selector);
    result.push(await page.evaluate(() => performance.now()));
    await page.close();
  }
  await context.close();
  return result;
}
// Milliseconds from navigation start until the graph of a conversation is laid out and drawn
// (the frame after Cytoscape holds its nodes), as `loads` does.
async function graphLoads(id, times = 5) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const result = [];
  for (let i = 0; i < times; i++) {
    const page = await context.newPage();
    await page.goto(`${base}/#/graph/${id}`, { waitUntil: 'commit' });
    // (In the page's callbacks, globalThis is the page's window: the benches are typed for node.)
    await page.waitForFunction(
      () => /** @type {any} */ (globalThis).chatgraphGraph?.nodes().length > 0,
    );
    result.push(
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
    await page.close();
  }
  await context.close();
  return result;
}

// Milliseconds each of `pages` more pages takes to be drawn as the list is scrolled to its end.
async function scrolled(pages) {
  const page = await browser.newPage();
  await page.goto(`${base}/`);
  await page.waitForSelector('.conversation-row');
  const result = [];
  for (let i = 0; i < pages; i++) {
    const before = await page.locator('.conversation-row').count();
    const start = Date.now();
    await page.locator('button.more').scrollIntoViewIfNeeded();
    await page.locator('.conversation-row').nth(before).waitFor();
    result.push(Date.now() - start);
  }
  await page.close();
  return result;
}

// The API's answer for the list's last page: by OFFSET (every row before it read) and by the
// cursor the page before it gave (a seek in the sort's index).
async function deepPage(total) {
  const time = async (query) => {
    const start = performance.now();
    const answer = /** @type {{nextCursor: string | null}} */ (
      await (await fetch(`${base}/api/conversations?minMessages=1&${query}`)).json()
    );
    return { ms: performance.now() - start, answer };
  };
  const before = await time(`offset=${Math.max(0, total - 100)}&limit=50`);
  const offsetTimes = [];
  const cursorTimes = [];
  for (let i = 0; i < 5; i++) {
    offsetTimes.push((await time(`offset=${Math.max(0, total - 50)}&limit=50`)).ms);
    cursorTimes.push((await time(`after=${before.answer.nextCursor ?? ''}&limit=50`)).ms);
  }
  const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  say(
    `API, the last page of ${total}: by offset ${median(offsetTimes).toFixed(1)} ms, by cursor ${median(cursorTimes).toFixed(1)} ms (median of 5)`,
  );
}

const report = (name, values) =>
  say(
    `${name}: first (cold) ${(values[0] ?? NaN).toFixed(0)} ms, then ${values
      .slice(1)
      .map((v) => v.toFixed(0))
      .join(', ')} ms`,
  );

try {
  const stats = /** @type {{conversations: number, messages: number}} */ (
    await (await fetch(`${base}/api/overview`)).json()
  );
  say(`web app over ${stats.conversations} conversations, ${stats.messages} messages`);
  report('conversation list page (target < 1000 ms)', await loads('/', '.conversation-row'));
  report('list scrolled: the next 10 pages, each', await scrolled(10));
  await deepPage(stats.conversations);
  report('list filtered by title', await loads('/#/?title=postgres', '.list-count'));
  // The longest conversation, then the 500-message one (every other has at most a few dozen).
  const list = /** @type {{items: {id: string, messageCount: number}[]}} */ (
    await (await fetch(`${base}/api/conversations?sort=most-messages&limit=2`)).json()
  );
  const [longest, forGraph] = list.items;
  if (!longest || !forGraph) throw new Error('the web bench data folder lacks its long ones');
  report(
    `conversation of ${longest.messageCount} messages`,
    await loads(`/#/c/${longest.id}`, 'article.message'),
  );
  report(
    `the same, until all ${longest.messageCount} messages are drawn`,
    await loads(`/#/c/${longest.id}`, '.thread[data-complete]'),
  );
  report(`graph of a ${forGraph.messageCount}-message conversation`, await graphLoads(forGraph.id));
  // The tiny conversations have none of the generated topics' words.
  if (!tiny) report('search "kubernetes"', await loads('/#/search?q=kubernetes', 'a.hit'));
  report('overview', await loads('/#/overview', '#timeline canvas'));
} finally {
  await browser.close();
  server.kill();
}
