// Loaded with `node --import` before the CLI: writes to $CHATGRAPH_LOAD_PROBE, at exit, what the
// process loaded that costs memory: models opened and vector indexes loaded (told on the
// channels of src/embed/open-embedder.ts and src/stores/sqlite/sqlite-vectors.ts), and native
// modules (the ONNX runtime's binding among them: seen even if the channels were bypassed).
import { subscribe } from 'node:diagnostics_channel';
import { writeFileSync } from 'node:fs';

const seen = { models: [], vectorIndexes: [], native: [] };
subscribe('chatgraph:model-open', (message) => seen.models.push(message));
subscribe('chatgraph:vector-index-load', (message) => seen.vectorIndexes.push(message));
const dlopen = process.dlopen.bind(process);
process.dlopen = (module, filename, ...rest) => {
  seen.native.push(String(filename));
  return dlopen(module, filename, ...rest);
};
process.on('exit', () => {
  const file = process.env.CHATGRAPH_LOAD_PROBE;
  if (file) writeFileSync(file, JSON.stringify(seen));
});
