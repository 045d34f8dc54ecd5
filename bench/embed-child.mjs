// One timed embed run in a child process (so its peak RSS is its own): embeds a data folder for
// at most the given seconds, stops cleanly, and prints what it did as JSON.
// `node bench/embed-child.mjs <data-dir> <seconds>`
import { DataFolder } from '../dist/index.js';

const [dataDir, seconds] = process.argv.slice(2);
if (!dataDir || !seconds) throw new Error('usage: embed-child.mjs <data-dir> <seconds>');
const folder = await DataFolder.open(dataDir);
const controller = new AbortController();
const timer = setTimeout(() => controller.abort(), Number(seconds) * 1000);
let lastProgress;
const started = process.hrtime.bigint();
const report = await folder.embed({
  signal: controller.signal,
  onProgress: (progress) => {
    lastProgress = progress;
  },
});
const elapsed = Number(process.hrtime.bigint() - started) / 1e9;
clearTimeout(timer);
const counts = await (await folder.reader()).vectorModel();
await folder.close();
process.stdout.write(
  `${JSON.stringify({
    seconds: elapsed,
    embedded: report.embedded,
    cached: report.cached,
    conversationsDone: report.conversationsDone,
    conversations: report.conversations,
    charactersDone: report.charactersDone,
    characters: report.characters,
    vectors: counts?.count ?? 0,
    model: report.model,
    maxRssBytes: process.resourceUsage().maxRSS * 1024,
    lastProgress,
  })}\n`,
);
