/**
 * Just enough of ONNX's protobuf encoding (onnx.proto, proto2) to write an inference graph:
 * models, graphs, nodes, attributes, tensors with raw data, and typed inputs and outputs. The
 * field numbers are onnx.proto's; onnxruntime reads the result like any exported model.
 */

/** ONNX TensorProto.DataType values used here. */
export const DataType = { FLOAT: 1, UINT8: 2, INT8: 3, INT64: 7 } as const;
export type DataTypeValue = (typeof DataType)[keyof typeof DataType];

/** A protobuf message being written: fields appended in order, bytes joined at the end. */
class Message {
  private parts: Buffer[] = [];

  private varint(value: bigint): void {
    const bytes: number[] = [];
    // Negative int64 values are written as their 64-bit two's complement, as protobuf says.
    let rest = BigInt.asUintN(64, value);
    do {
      const low = Number(rest & 0x7fn);
      rest >>= 7n;
      bytes.push(rest > 0n ? low | 0x80 : low);
    } while (rest > 0n);
    this.parts.push(Buffer.from(bytes));
  }

  private key(field: number, wire: number): void {
    this.varint(BigInt((field << 3) | wire));
  }

  int(field: number, value: number | bigint): this {
    this.key(field, 0);
    this.varint(BigInt(value));
    return this;
  }

  float(field: number, value: number): this {
    this.key(field, 5);
    const bytes = Buffer.alloc(4);
    bytes.writeFloatLE(value);
    this.parts.push(bytes);
    return this;
  }

  bytes(field: number, value: Buffer | string | Message): this {
    const body =
      value instanceof Message
        ? value.finish()
        : typeof value === 'string'
          ? Buffer.from(value, 'utf8')
          : value;
    this.key(field, 2);
    this.varint(BigInt(body.length));
    this.parts.push(body);
    return this;
  }

  finish(): Buffer {
    return Buffer.concat(this.parts);
  }
}

/** A tensor's raw little-endian bytes with its type and shape. */
export interface TensorData {
  name: string;
  type: DataTypeValue;
  dims: readonly number[];
  raw: Buffer;
}

/** One attribute value: an int, a float, a list of ints, or a tensor. */
export type AttributeValue =
  number | { float: number } | { ints: readonly number[] } | { tensor: TensorData };

export interface NodeSpec {
  op: string;
  inputs: readonly string[];
  outputs: readonly string[];
  attributes?: Record<string, AttributeValue>;
  /** The operator set, '' for ONNX's own (e.g. 'com.microsoft' for onnxruntime's). */
  domain?: string;
}

/** A graph input or output: a name, an element type, and dims (a string names a free dim). */
export interface ValueSpec {
  name: string;
  type: DataTypeValue;
  dims: readonly (number | string)[];
}

export interface ModelSpec {
  nodes: readonly NodeSpec[];
  initializers: readonly TensorData[];
  inputs: readonly ValueSpec[];
  outputs: readonly ValueSpec[];
  /** Operator sets the graph uses: domain -> version. */
  opsets: Record<string, number>;
  producer: string;
  /** Stored in the model's doc string: where the weights came from. */
  doc: string;
}

function tensor(data: TensorData): Message {
  const message = new Message();
  for (const dim of data.dims) message.int(1, dim);
  return message.int(2, data.type).bytes(8, data.name).bytes(9, data.raw);
}

function attribute(name: string, value: AttributeValue): Message {
  const message = new Message().bytes(1, name);
  // AttributeProto.AttributeType: FLOAT 1, INT 2, TENSOR 4, INTS 7.
  if (typeof value === 'number') return message.int(3, value).int(20, 2);
  if ('float' in value) return message.float(2, value.float).int(20, 1);
  if ('tensor' in value) return message.bytes(5, tensor(value.tensor)).int(20, 4);
  for (const item of value.ints) message.int(8, item);
  return message.int(20, 7);
}

function valueInfo(value: ValueSpec): Message {
  const shape = new Message();
  for (const dim of value.dims)
    shape.bytes(
      1,
      typeof dim === 'number' ? new Message().int(1, dim) : new Message().bytes(2, dim),
    );
  const tensorType = new Message().int(1, value.type).bytes(2, shape);
  return new Message().bytes(1, value.name).bytes(2, new Message().bytes(1, tensorType));
}

/** The bytes of an ONNX model file (IR version 8). */
export function encodeModel(spec: ModelSpec): Buffer {
  const graph = new Message();
  spec.nodes.forEach((node, index) => {
    const message = new Message();
    for (const input of node.inputs) message.bytes(1, input);
    for (const output of node.outputs) message.bytes(2, output);
    message.bytes(3, `${node.op}_${index}`).bytes(4, node.op);
    for (const [name, value] of Object.entries(node.attributes ?? {}))
      message.bytes(5, attribute(name, value));
    if (node.domain) message.bytes(7, node.domain);
    graph.bytes(1, message);
  });
  graph.bytes(2, 'main');
  for (const initializer of spec.initializers) graph.bytes(5, tensor(initializer));
  for (const input of spec.inputs) graph.bytes(11, valueInfo(input));
  for (const output of spec.outputs) graph.bytes(12, valueInfo(output));
  const model = new Message().int(1, 8).bytes(2, spec.producer).bytes(6, spec.doc);
  model.bytes(7, graph);
  for (const [domain, version] of Object.entries(spec.opsets))
    model.bytes(8, new Message().bytes(1, domain).int(2, version));
  return model.finish();
}
