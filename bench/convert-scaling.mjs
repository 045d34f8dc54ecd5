// Conversion time against conversation length: one generated single-thread ChatGPT conversation
// of 10k, 20k, 40k and 200k messages, each converted in its own process (bench/convert-child.mjs)
// so its peak RSS is its own. Linear work keeps seconds per 10k messages flat.
// `node bench/convert-scaling.mjs [--sizes 10000,20000]`.
import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdirSync, rmSync } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const sizes = args.includes('--sizes')
  ? (args[args.indexOf('--sizes') + 1] ?? '').split(',').map(Number)
  : [10_000, 20_000, 40_000, 200_000];
const dir = join(root, '.bench', 'convert-scaling');
mkdirSync(dir, { recursive: true });

/** Writes conversations.json holding one conversation: a chain of `n` messages. */
async function writeChain(path, n) {
  const out = createWriteStream(path);
  const write = async (text) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write(
    `[{"id":"chain-${n}","conversation_id":"chain-${n}","title":"chain of ${n}","create_time":1700000000,"update_time":1700000000,"current_node":"m${n - 1}","mapping":{`,
  );
  for (let i = 0; i < n; i++) {
    const node = {
      id: `m${i}`,
      parent: i === 0 ? null : `m${i - 1}`,
      children: i === n - 1 ? [] : [`m${i + 1}`],
      message: {
        id: `m${i}`,
        author: { role: i % 2 === 0 ? 'user' : 'assistant', metadata: {} },
        create_time: 1_700_000_000 + i,
        content: { content_type: 'text', parts: [`message ${i}: a few words of text to read`] },
        metadata: {},
        recipient: 'all',
      },
    };
    await write(`${i === 0 ? '' : ','}"m${i}":${JSON.stringify(node)}`);
  }
  await write('}}]');
  out.end();
  await once(out, 'finish');
}

process.stdout.write('messages   seconds   s per 10k   peak RSS\n');
for (const n of sizes) {
  const input = join(dir, `chain-${n}.json`);
  await writeChain(input, n);
  const out = join(dir, `bundle-${n}`);
  rmSync(out, { recursive: true, force: true });
  const result = JSON.parse(
    execFileSync(process.execPath, [join(root, 'bench', 'convert-child.mjs'), input, out], {
      encoding: 'utf8',
      maxBuffer: 1 << 26,
    }),
  );
  if (result.messages !== n)
    throw new Error(`expected ${n} messages, converted ${result.messages}`);
  process.stdout.write(
    `${String(n).padStart(8)}  ${result.seconds.toFixed(2).padStart(8)}  ${((result.seconds / n) * 10_000).toFixed(2).padStart(10)}  ${(result.maxRssBytes / 1024 / 1024).toFixed(0).padStart(6)} MB\n`,
  );
  rmSync(out, { recursive: true, force: true });
  rmSync(input, { force: true });
}
