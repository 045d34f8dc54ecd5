/**
 * Turns a SentencePiece unigram model (`sp.model`, a serialized ModelProto) into the
 * `tokenizer.json` that `@huggingface/tokenizers` reads, the way Hugging Face converts slow
 * SentencePiece tokenizers: the pieces and scores become a Unigram model, the normalizer's
 * precompiled charsmap a `Precompiled` normalizer followed by SentencePiece's whitespace rules
 * (runs of spaces collapsed, ends stripped), spaces become U+2581 with one prepended (Metaspace),
 * and BOS and EOS are added around every text as the encoder was trained.
 */

interface Field {
  field: number;
  wire: number;
  /** The varint's value (wire 0), or the payload's bounds (wire 2 and 5). */
  value: number;
  start: number;
  end: number;
}

function fieldsOf(bytes: Buffer, start: number, end: number, label: string): Field[] {
  const fields: Field[] = [];
  let pos = start;
  const varint = (): number => {
    let result = 0;
    let scale = 1;
    for (;;) {
      if (pos >= end) throw new Error(`${label}: a varint runs past the end of its message`);
      const byte = bytes[pos++] ?? 0;
      result += (byte & 0x7f) * scale;
      if (byte < 0x80) return result;
      scale *= 128;
    }
  };
  while (pos < end) {
    const key = varint();
    const field = Math.floor(key / 8);
    const wire = key % 8;
    if (wire === 0) fields.push({ field, wire, value: varint(), start: pos, end: pos });
    else if (wire === 2) {
      const length = varint();
      fields.push({ field, wire, value: 0, start: pos, end: pos + length });
      pos += length;
    } else if (wire === 5) {
      fields.push({ field, wire, value: 0, start: pos, end: pos + 4 });
      pos += 4;
    } else if (wire === 1) pos += 8;
    else throw new Error(`${label}: protobuf wire type ${wire} at byte ${pos}`);
    if (pos > end) throw new Error(`${label}: a field runs past the end of its message`);
  }
  return fields;
}

/** SentencePiece's piece types (sentencepiece_model.proto). */
const PieceType = { NORMAL: 1, UNKNOWN: 2, CONTROL: 3, USER_DEFINED: 4, UNUSED: 5, BYTE: 6 };

export interface SentencePieceModel {
  pieces: { piece: string; score: number; type: number }[];
  charsmap: Buffer;
  normalizerName: string;
}

/** Reads the pieces and the normalizer of a SentencePiece ModelProto. */
export function parseSentencePiece(bytes: Buffer, label: string): SentencePieceModel {
  const pieces: SentencePieceModel['pieces'] = [];
  let charsmap = Buffer.alloc(0);
  let normalizerName = '';
  for (const top of fieldsOf(bytes, 0, bytes.length, label)) {
    if (top.field === 1 && top.wire === 2) {
      let piece = '';
      let score = 0;
      let type = PieceType.NORMAL;
      for (const inner of fieldsOf(bytes, top.start, top.end, label)) {
        if (inner.field === 1) piece = bytes.toString('utf8', inner.start, inner.end);
        else if (inner.field === 2 && inner.wire === 5) score = bytes.readFloatLE(inner.start);
        else if (inner.field === 3 && inner.wire === 0) type = inner.value;
      }
      pieces.push({ piece, score, type });
    } else if (top.field === 3 && top.wire === 2) {
      for (const inner of fieldsOf(bytes, top.start, top.end, label)) {
        if (inner.field === 1) normalizerName = bytes.toString('utf8', inner.start, inner.end);
        else if (inner.field === 2) charsmap = Buffer.from(bytes.subarray(inner.start, inner.end));
      }
    }
  }
  if (pieces.length === 0) throw new Error(`${label} holds no SentencePiece pieces`);
  return { pieces, charsmap, normalizerName };
}

/** The `tokenizer.json` object for a SentencePiece unigram model with BOS/EOS around each text. */
export function sentencePieceToTokenizerJson(bytes: Buffer, label: string): object {
  const model = parseSentencePiece(bytes, label);
  const find = (type: number, fallback: string): { id: number; content: string } => {
    // Models that leave the types out (all NORMAL) are matched by the pieces' usual names.
    let id = model.pieces.findIndex((piece) => piece.type === type);
    if (type !== PieceType.UNKNOWN || id < 0)
      id = model.pieces.findIndex((piece) => piece.piece === fallback);
    if (id < 0) throw new Error(`${label} has no ${fallback} piece`);
    return { id, content: model.pieces[id]?.piece ?? fallback };
  };
  const unk = find(PieceType.UNKNOWN, '<unk>');
  const bos = find(PieceType.CONTROL, '<s>');
  const eos = find(PieceType.CONTROL, '</s>');
  const added = [unk, bos, eos].map(({ id, content }) => ({
    id,
    content,
    single_word: false,
    lstrip: false,
    rstrip: false,
    normalized: false,
    special: true,
  }));
  const special = (token: { id: number; content: string }): object => ({
    SpecialToken: { id: token.content, type_id: 0 },
  });
  return {
    version: '1.0',
    truncation: null,
    padding: null,
    added_tokens: added,
    normalizer: {
      type: 'Sequence',
      normalizers: [
        { type: 'Precompiled', precompiled_charsmap: model.charsmap.toString('base64') },
        { type: 'Replace', pattern: { Regex: ' {2,}' }, content: ' ' },
        { type: 'Strip', strip_left: true, strip_right: true },
      ],
    },
    pre_tokenizer: {
      type: 'Metaspace',
      replacement: '\u2581',
      prepend_scheme: 'always',
      split: false,
    },
    post_processor: {
      type: 'TemplateProcessing',
      single: [special(bos), { Sequence: { id: 'A', type_id: 0 } }, special(eos)],
      pair: [
        special(bos),
        { Sequence: { id: 'A', type_id: 0 } },
        special(eos),
        { Sequence: { id: 'B', type_id: 0 } },
        special(eos),
      ],
      special_tokens: Object.fromEntries(
        [bos, eos].map((token) => [
          token.content,
          { id: token.content, ids: [token.id], tokens: [token.content] },
        ]),
      ),
    },
    decoder: { type: 'Metaspace', replacement: '\u2581', prepend_scheme: 'always', split: false },
    model: {
      type: 'Unigram',
      unk_id: unk.id,
      vocab: model.pieces.map((piece) => [piece.piece, piece.score]),
      byte_fallback: false,
      // SentencePiece gives one <unk> per unknown character; Hugging Face's default fuses runs.
      fuse_unk: false,
    },
  };
}
