// Assembles src/stores/vectors/hamming.wat (the vector index's SIMD kernel) with wabt's wat2wasm
// and writes the bytes into src/stores/vectors/hamming-wasm.ts, so the kernel ships without a
// build-time assembler or a file read at start. `npm run assemble` after editing the .wat; the
// code-arena test fails while the committed bytes and the source disagree.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import wabt from 'wabt';

const source = fileURLToPath(new URL('../src/stores/vectors/hamming.wat', import.meta.url));
const target = fileURLToPath(new URL('../src/stores/vectors/hamming-wasm.ts', import.meta.url));

const module = (await wabt()).parseWat('hamming.wat', readFileSync(source, 'utf8'), { simd: true });
module.validate();
const { buffer } = module.toBinary({ canonicalize_lebs: true, write_debug_names: false });
module.destroy();
const base64 = Buffer.from(buffer).toString('base64');
writeFileSync(
  target,
  `// Made by \`npm run assemble\` from hamming.wat (wabt's wat2wasm): edit the .wat, not this.\n` +
    `export const HAMMING_WASM = '${base64}';\n`,
);
process.stdout.write(`${target}: ${buffer.length} bytes\n`);
