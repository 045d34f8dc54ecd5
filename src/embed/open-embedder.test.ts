import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/support/convert-to-temp.js';
import { ModelNotInstalledError } from './embed-errors.js';
import { DEFAULT_MODEL } from './model-catalog.js';
import { MANIFEST_FILE } from './model-folder.js';
import { resolveLocalModel } from './open-embedder.js';

describe('a model file that is not a regular file', () => {
  it('is refused in one line when a folder given by path has a FIFO model.onnx', async () => {
    const folder = join(tempDir(), 'model');
    mkdirSync(folder);
    execFileSync('mkfifo', [join(folder, 'model.onnx')]);
    writeFileSync(join(folder, 'tokenizer.json'), '{}');
    const error = await resolveLocalModel({ model: folder }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelNotInstalledError);
    expect(String(error)).toContain(
      `${join(folder, 'model.onnx')} is a FIFO (named pipe), not a file`,
    );
  }, 10_000);

  it('is refused in one line when an installed model lists a FIFO', async () => {
    const modelDir = tempDir();
    const folder = join(modelDir, DEFAULT_MODEL);
    mkdirSync(folder, { recursive: true });
    execFileSync('mkfifo', [join(folder, 'model.onnx')]);
    writeFileSync(
      join(folder, MANIFEST_FILE),
      JSON.stringify({
        id: DEFAULT_MODEL,
        dimensions: 4,
        maxTokens: 16,
        source: 'test',
        files: [{ name: 'model.onnx', sha256: '0'.repeat(64), size: 1 }],
        fetchedAt: '2026-01-01T00:00:00Z',
      }),
    );
    const error = await resolveLocalModel({ model: DEFAULT_MODEL, modelDir }).catch(
      (e: unknown) => e,
    );
    expect(String(error)).toContain('is a FIFO (named pipe), not a file');
  }, 10_000);
});
