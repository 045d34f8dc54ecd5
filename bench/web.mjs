// The web app benchmark (issue: the web app): with 10,000 conversations imported, how long
// the page takes in Debian's Chromium from navigation until the first page of conversations
// is drawn, and the same for a long conversation, a search and the overview.
// `node bench/web.mjs [--conversations N]`.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchChromium } from '../scripts/chromium.mjs';
import { writeChatgptExport } from '../dist/index.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) =>
  args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback;
const conversations = option('--conversations', 10_000);
const work = join(root, '.bench');
mkdirSync(work, { recursive: true });
const cli = join(root, 'dist', 'cli', 'main.js');
const say = (line) => process.stdout.write(`${line}\n`);

const exportPath = join(work, `chatgpt-${conversations}-conversations.zip`);
if (!existsSync(exportPath)) {
  process.stderr.write(`generating ${exportPath}…\n`);
  await writeChatgptExport(exportPath, { seed: 5, conversations, longTurns: 300 });
}
const data = join(work, `web-data-${conversations}`);
if (!existsSync(join(data, 'chatgraph.sqlite'))) {
  process.stderr.write(`importing into ${data}…\n`);
  execFileSync(process.execPath, [cli, 'import', exportPath, '--data-dir', data, '-q']);
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
  report(
    'conversation list page (target < 1000 ms)',
    await loads('/', 'table.conversations tbody tr'),
  );
  report('list, page 100 of 200', await loads('/#/?page=100', 'table.conversations tbody tr'));
  report('list filtered by title', await loads('/#/?title=postgres', '.pager'));
  const list = /** @type {{items: {id: string, messageCount: number}[]}} */ (
    await (await fetch(`${base}/api/conversations?sort=most-messages&limit=1`)).json()
  );
  const longest = list.items[0];
  if (!longest) throw new Error('the web bench data folder holds no conversation');
  report(
    `conversation of ${longest.messageCount} messages`,
    await loads(`/#/c/${longest.id}`, 'article.message'),
  );
  report(
    `the same, until all ${longest.messageCount} messages are drawn`,
    await loads(`/#/c/${longest.id}`, '.thread[data-complete]'),
  );
  report('search "kubernetes"', await loads('/#/search?q=kubernetes', 'a.hit'));
  report('overview', await loads('/#/overview', 'svg.month-chart rect'));
} finally {
  await browser.close();
  server.kill();
}
