// Loaded with `node --import` before the CLI: writes to $CHATGRAPH_LOAD_PROBE, at exit, what the
// process loaded that costs memory: models opened and vector indexes loaded (told on the
// channels of src/embed/open-embedder.ts and src/stores/sqlite/sqlite-vectors.ts), and native
// modules (the ONNX runtime's binding among them: seen even if the channels were bypassed); and
// every ES module loaded (the bundle's chunks, the packages imported), by module hooks; and every
// CommonJS file required (Node's one CommonJS cache, read at exit).
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const seen = { models: [], vectorIndexes: [], native: [], modules: [], commonjs: [] };
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => seen.modules.push(String(url)));
port1.unref();
register('./load-probe-hooks.mjs', import.meta.url, {
  data: { port: port2 },
  transferList: [port2],
});
subscribe('chatgraph:model-open', (message) => seen.models.push(message));
subscribe('chatgraph:vector-index-load', (message) => seen.vectorIndexes.push(message));
const dlopen = process.dlopen.bind(process);
process.dlopen = (module, filename, ...rest) => {
  seen.native.push(String(filename));
  return dlopen(module, filename, ...rest);
};
process.on('exit', () => {
  const file = process.env.CHATGRAPH_LOAD_PROBE;
  seen.commonjs = Object.keys(createRequire(import.meta.url).cache);
  if (file) writeFileSync(file, JSON.stringify(seen));
});
