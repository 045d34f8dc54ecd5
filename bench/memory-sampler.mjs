// Preloaded by bench/import.mjs (node --import, so in worker threads too): on the main thread,
// samples the RSS every 50 ms and, at exit, writes the peak RSS and CPU seconds (getrusage, all
// threads) with process.memoryUsage() at the highest sampled RSS to the file named by
// CHATGRAPH_MEMORY_SAMPLES; on a worker thread, keeps that file's `.worker-N` sibling up to date
// with the worker's largest V8 heap (a worker is terminated, so it has no exit of its own).
import { readFileSync, writeFileSync } from 'node:fs';
import { getHeapStatistics } from 'node:v8';
import { isMainThread, threadId } from 'node:worker_threads';

const file = process.env.CHATGRAPH_MEMORY_SAMPLES;
if (file && isMainThread) {
  let peak = 0;
  let atPeak = process.memoryUsage();
  const timer = setInterval(() => {
    const rss = process.memoryUsage.rss();
    if (rss <= peak) return;
    peak = rss;
    atPeak = process.memoryUsage();
  }, 50);
  timer.unref();
  process.on('exit', () => {
    const usage = process.resourceUsage();
    const cpuSeconds = (usage.userCPUTime + usage.systemCPUTime) / 1e6;
    writeFileSync(
      file,
      JSON.stringify({
        maxRss: usage.maxRSS * 1024,
        cpuSeconds,
        userSeconds: usage.userCPUTime / 1e6,
        systemSeconds: usage.systemCPUTime / 1e6,
        // The main thread's CPU seconds; the rest is the workers' (ended ones too) and helpers'.
        mainThreadSeconds: mainThreadSeconds(),
        atPeak,
      }),
    );
  });
} else if (file) {
  let heap = 0;
  const timer = setInterval(() => {
    const now = getHeapStatistics().total_heap_size;
    if (now <= heap) return;
    heap = now;
    writeFileSync(`${file}.worker-${threadId}`, JSON.stringify({ heap }));
  }, 200);
  timer.unref();
}

/** The main thread's CPU seconds (user and system), by Linux's /proc; undefined elsewhere. */
function mainThreadSeconds() {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}
