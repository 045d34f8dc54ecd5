// A deterministic crash point: runs one verb of the compiled library and kills its own process
// (SIGKILL, no clean-up, as kill -9 or a power cut would) at a set point of its own progress, so
// a test waits on the child's exit rather than sleeping and hoping it is mid-way.
//   node test/support/crash-child.mjs import <export> <data-dir> <conversations>
//   node test/support/crash-child.mjs embed <data-dir> <conversations>
import { DataFolder } from '../../dist/index.js';

const [operation, ...args] = process.argv.slice(2);
const crashAt = (count) => (done) => {
  if (done >= count) process.kill(process.pid, 'SIGKILL');
};

if (operation === 'import') {
  const [input, dataDir, count] = args;
  const crash = crashAt(Number(count));
  const folder = await DataFolder.open(dataDir);
  await folder.import([input], { onProgress: (p) => crash(p.conversations) });
} else if (operation === 'embed') {
  const [dataDir, count] = args;
  const crash = crashAt(Number(count));
  const folder = await DataFolder.open(dataDir);
  await folder.embed({ onProgress: (p) => crash(p.conversationsDone) });
} else throw new Error(`unknown operation ${String(operation)}`);
// Reaching here means the crash point was never reached: the test says so.
process.stdout.write('finished without crashing\n');
