// Loaded with `node --import` before the CLI: writes to $CHATGRAPH_LOAD_PROBE, at exit, what the
// process loaded that costs memory: models opened and vector indexes loaded (told on the
// channels of src/embed/open-embedder.ts and src/stores/sqlite/sqlite-vectors.ts), and native
// modules (the ONNX runtime's binding among them: seen even if the channels were bypassed); and
// every ES module loaded (the bundle's chunks, the packages imported), by module hooks; and every
// CommonJS file required (Node's one CommonJS cache, read at exit); and the modules the CLI's
// bundle ran (src/cli/code-cache.ts tells its list on `chatgraph:code-cache`: the bundle is one
// file compiled through V8's code cache, none of its modules is loaded by Node) and whether V8
// took the code cache.
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const seen = {
  models: [],
  vectorIndexes: [],
  native: [],
  modules: [],
  commonjs: [],
  ran: [],
  codeCache: null,
};
const { port1, port2 } = new MessageChannel();
port1.on('message', (url) => seen.modules.push(String(url)));
port1.unref();
register('./load-probe-hooks.mjs', import.meta.url, {
  data: { port: port2 },
  transferList: [port2],
});
subscribe('chatgraph:model-open', (message) => seen.models.push(message));
subscribe('chatgraph:vector-index-load', (message) => seen.vectorIndexes.push(message));
// Its list of modules run grows as they run: read at exit.
let bundle;
subscribe('chatgraph:code-cache', (message) => (bundle = message));
const dlopen = process.dlopen.bind(process);
process.dlopen = (module, filename, ...rest) => {
  seen.native.push(String(filename));
  return dlopen(module, filename, ...rest);
};
process.on('exit', () => {
  const file = process.env.CHATGRAPH_LOAD_PROBE;
  seen.commonjs = Object.keys(createRequire(import.meta.url).cache);
  if (bundle) {
    seen.ran = [...bundle.ran];
    seen.codeCache = { cache: bundle.cache, accepted: bundle.accepted };
  }
  if (file) writeFileSync(file, JSON.stringify(seen));
});
