import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BY_MEANING_NOTICE } from '../src/recall/recaller.js';
import { writeExport } from './support/recall-fixtures.js';
import { tempDir } from './support/convert-to-temp.js';
import { testModelDir } from './support/embedding-model.js';
import { ROOT } from './support/shared.js';

const run = promisify(execFile);
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  bin: { chatgraph: string };
};
// The file users run, as `npm install -g` links it.
const CLI = join(ROOT, pkg.bin.chatgraph);
const PROBE = join(ROOT, 'test', 'support', 'load-probe.mjs');
const env = { ...process.env, CHATGRAPH_MODEL_DIR: testModelDir() };

interface Loads {
  models: unknown[];
  vectorIndexes: unknown[];
  native: string[];
  /** The URL of every ES module loaded. */
  modules: string[];
  /** The path of every CommonJS file required. */
  commonjs: string[];
  /** The modules the CLI's bundle ran (src/…ts, node_modules/…): paths from the root. */
  ran: string[];
}

/** Runs the CLI with the load probe: its JSON answer, and what it loaded. */
async function probed(dir: string, args: string[]): Promise<{ answer: unknown; loads: Loads }> {
  const file = join(dir, `loads-${String(Math.random()).slice(2)}.json`);
  const { stdout } = await run(process.execPath, ['--import', PROBE, CLI, ...args], {
    env: { ...env, CHATGRAPH_LOAD_PROBE: file },
  });
  return { answer: JSON.parse(stdout), loads: JSON.parse(readFileSync(file, 'utf8')) as Loads };
}

const onnx = (loads: Loads): string[] => loads.native.filter((f) => /onnxruntime/i.test(f));

const SourceMap = z.object({ sources: z.array(z.string()) });

/**
 * The code a process loaded, as paths from the root: the modules the CLI's bundle ran (it is one
 * file, compiled through V8's code cache: src/cli/code-cache.ts), the source files of each other
 * built file loaded (from its source map) and each package file imported.
 */
function loadedCode(loads: Loads): string[] {
  return [...loads.ran, ...builtCode(loads)];
}

function builtCode(loads: Loads): string[] {
  return loads.modules.flatMap((url) => {
    if (!url.startsWith('file:')) return [];
    const file = fileURLToPath(url);
    if (!existsSync(`${file}.map`)) return [relative(ROOT, file)];
    const map = SourceMap.parse(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
    return map.sources.map((source) => relative(ROOT, resolve(dirname(file), source)));
  });
}

describe('a search by words on an embedded folder (issue 46)', () => {
  it('opens neither the vector index nor the model; a search by meaning opens both', async () => {
    const dir = tempDir();
    const data = join(dir, 'data');
    await run(process.execPath, [CLI, 'import', writeExport(dir), '--data-dir', data, '-q'], {
      env,
    });
    await run(process.execPath, [CLI, 'embed', '--data-dir', data], { env });
    const json = ['--data-dir', data, '--format', 'json'];

    const words = await probed(dir, ['search', 'sourdough', '--mode', 'keyword', ...json]);
    expect(words.answer).toMatchObject({
      mode: 'keyword',
      conversations: [{ platformConversationId: 'starter' }],
    });
    expect(words.loads.models).toEqual([]);
    expect(words.loads.vectorIndexes).toEqual([]);
    expect(onnx(words.loads)).toEqual([]);
    // Nor the code of what it does not do: the providers (and yaml, through one of them), the
    // import pipeline, the exports, zod 4 (the bundle files' schema). They came in through the
    // public API's entry files, 2 MB of JavaScript in 69 chunks for a search by words.
    const code = loadedCode(words.loads);
    expect(code).toContain('src/stores/sqlite/sqlite-search.ts');
    // (providers/untrusted.ts: a few type guards the graph shares.)
    const unneeded = /^src\/(providers\/(?!untrusted\.ts)|pipeline\/|export\/|sample\/)/;
    expect(code.filter((f) => unneeded.test(f))).toEqual([]);
    expect(code.filter((f) => /node_modules\/(yaml|zod\/v4)\//.test(f))).toEqual([]);
    // nlp.js's stemmers are in the bundle: a search read them and @nlpjs/core, 35 CommonJS
    // files, one by one (the stems of the query in every language are still made).
    expect(words.loads.commonjs.filter((f) => /@nlpjs/.test(f))).toEqual([]);
    expect(code).toContain('node_modules/@nlpjs/lang-fr/src/stemmer-fr.js');

    // The same probe sees both where they are needed: it is not blind.
    const meaning = await probed(dir, ['search', 'my bread leaven has a chemical odour', ...json]);
    expect(meaning.answer).toMatchObject({ mode: 'hybrid' });
    expect(meaning.loads.models.length).toBe(1);
    expect(meaning.loads.vectorIndexes.length).toBeGreaterThan(0);
    expect(onnx(meaning.loads).length).toBeGreaterThan(0);

    // Nothing has the words: still no model (it cost a one-shot search 250 MB and most of a
    // second); the answer says a search by meaning may find what is near.
    const none = await probed(dir, ['search', 'leaven', 'odour', '--mode', 'keyword', ...json]);
    expect(none.answer).toMatchObject({
      mode: 'keyword',
      conversations: [],
      notice: BY_MEANING_NOTICE,
    });
    expect(none.answer).not.toHaveProperty('nearest');
    expect(none.loads.models).toEqual([]);
    expect(none.loads.vectorIndexes).toEqual([]);
    expect(onnx(none.loads)).toEqual([]);
  });
});
