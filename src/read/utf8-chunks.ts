import { TextDecoder } from 'node:util';

/** The byte-order marks of UTF-16, and the decoder each calls for. */
const UTF16_BOMS: [number, number, 'utf-16le' | 'utf-16be'][] = [
  [0xff, 0xfe, 'utf-16le'],
  [0xfe, 0xff, 'utf-16be'],
];

/**
 * A file's chunks as UTF-8: a file that starts with a UTF-16 byte-order mark (an export saved
 * again by a Windows editor) is decoded, anything else passes through as it is.
 */
export async function* utf8Chunks(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  let decoder: TextDecoder | undefined;
  let head: Buffer | undefined = Buffer.alloc(0);
  for await (const chunk of source) {
    if (head !== undefined) {
      head = Buffer.concat([head, chunk]);
      if (head.length < 2) continue;
      const bom = UTF16_BOMS.find(([a, b]) => head?.[0] === a && head[1] === b);
      const first: Buffer = head;
      head = undefined;
      if (bom) {
        decoder = new TextDecoder(bom[2]);
        yield Buffer.from(decoder.decode(first.subarray(2), { stream: true }), 'utf8');
      } else yield first;
      continue;
    }
    yield decoder ? Buffer.from(decoder.decode(chunk, { stream: true }), 'utf8') : chunk;
  }
  if (head !== undefined && head.length > 0) yield head;
  if (decoder) {
    const rest = decoder.decode();
    if (rest.length > 0) yield Buffer.from(rest, 'utf8');
  }
}
