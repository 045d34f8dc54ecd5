/** A piece of a longer text, with its character offsets (`text.slice(start, end)`). */
export interface TextChunk {
  text: string;
  start: number;
  end: number;
  /** Its tokens as the chunker counted them (chunkers that do not count leave it out). */
  tokens?: number;
}

/** How to cut: the most tokens a chunk may have, and how many tokens neighbours share. */
export interface ChunkOptions {
  maxTokens: number;
  overlapTokens: number;
}

const SPACE = /\s/;
const SENTENCE_END = /[.!?。！？…]/;

/**
 * Splits a text into overlapping chunks of at most `maxTokens` tokens (as `countTokens` counts
 * them), cutting after a sentence or at whitespace where it can, so a hit on a chunk maps back to
 * its place in the text. Chunks cover the whole text; neighbours share about `overlapTokens`.
 */
export function chunkText(
  text: string,
  options: ChunkOptions,
  countTokens: (text: string) => number,
): TextChunk[] {
  const max = Math.max(1, options.maxTokens);
  const overlap = Math.max(0, Math.min(options.overlapTokens, Math.floor(max / 2)));
  const whole = text.length === 0 ? 0 : countTokens(text);
  if (whole <= max) return [{ text, start: 0, end: text.length, tokens: whole }];
  const fits = (start: number, end: number): boolean => countTokens(text.slice(start, end)) <= max;
  const chunks: TextChunk[] = [];
  let start = 0;
  let previousEnd = 0;
  while (start < text.length) {
    let end = chunkEnd(text, start, previousEnd, max, fits);
    previousEnd = end;
    // Trailing whitespace alone is not worth a chunk of its own.
    if (text.slice(end).trim() === '') end = text.length;
    const piece = text.slice(start, end);
    // Counted once more (a chunk is short): the embed plan's time estimate goes by tokens.
    chunks.push({ text: piece, start, end, tokens: countTokens(piece) });
    if (end >= text.length) break;
    start = overlap === 0 ? end : overlapStart(text, start, end, overlap, countTokens);
  }
  return chunks;
}

/** The last candidate (ascending list) for which `ok` holds, by binary search; -1 when none. */
function lastFitting(candidates: number[], ok: (position: number) => boolean): number {
  let low = 0;
  let high = candidates.length - 1;
  let best = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const position = candidates[mid] ?? 0;
    if (ok(position)) {
      best = position;
      low = mid + 1;
    } else high = mid - 1;
  }
  return best;
}

function chunkEnd(
  text: string,
  start: number,
  previousEnd: number,
  max: number,
  fits: (start: number, end: number) => boolean,
): number {
  // Grow the window until its last cut no longer fits (or the text ends): each probe then
  // tokenizes about one chunk, never the rest of a long text.
  let window = max * 8;
  let limit: number;
  let cuts: number[];
  for (;;) {
    limit = Math.min(text.length, start + window);
    cuts = cutsBetween(text, start, limit);
    const last = cuts.at(-1);
    if (limit === text.length || last === undefined || !fits(start, last) || window > max * 64)
      break;
    window *= 2;
  }
  const end = lastFitting(cuts, (p) => fits(start, p));
  if (end === -1) return hardCut(text, start, limit, fits);
  if (end === text.length) return end;
  // Prefer a sentence end in the second half of the chunk, past what the last chunk covered.
  const sentence = cuts.filter(
    (p) =>
      p <= end &&
      p > previousEnd &&
      p >= start + (end - start) / 2 &&
      (SENTENCE_END.test(text.charAt(p - 1)) || text.charAt(p) === '\n'),
  );
  return sentence.at(-1) ?? end;
}

/** Places after a word (before whitespace, or the text's end) in `(start, limit]`. */
function cutsBetween(text: string, start: number, limit: number): number[] {
  const cuts: number[] = [];
  for (let p = start + 1; p <= limit; p++)
    if (p === text.length || (SPACE.test(text.charAt(p)) && !SPACE.test(text.charAt(p - 1))))
      cuts.push(p);
  return cuts;
}

/** A cut inside a word (a run with no whitespace that is too long), never inside a surrogate pair. */
function hardCut(
  text: string,
  start: number,
  limit: number,
  fits: (start: number, end: number) => boolean,
): number {
  const positions: number[] = [];
  for (let p = start + 1; p <= limit; p++) {
    const code = text.charCodeAt(p - 1);
    if (code < 0xd800 || code > 0xdbff || p === text.length) positions.push(p);
  }
  const end = lastFitting(positions, (p) => fits(start, p));
  return end === -1 ? (positions[0] ?? start + 1) : end;
}

/** Where the next chunk starts: the earliest word start whose tail of this chunk fits the overlap. */
function overlapStart(
  text: string,
  start: number,
  end: number,
  overlap: number,
  countTokens: (text: string) => number,
): number {
  const starts: number[] = [];
  for (let p = start + 1; p < end; p++)
    if (!SPACE.test(text.charAt(p)) && SPACE.test(text.charAt(p - 1))) starts.push(p);
  // Later starts give fewer tokens: search from the end for the earliest one that fits.
  const reversed = [...starts].reverse();
  const found = lastFitting(reversed, (p) => countTokens(text.slice(p, end)) <= overlap);
  return found === -1 ? end : found;
}

/** Words (runs between ASCII whitespace) counted once each, then looked up. */
const WORD_MEMO = 200_000;
const ASCII_SPACES = /[ \t\n\r]+/;

/**
 * A counter that adds up a text's words, each tokenized once and remembered: a WordPiece or
 * SentencePiece tokenizer splits on whitespace before anything else, so a text's tokens are the
 * sum of its words' (plus the special tokens every text gets, `countTokens('')`). Cutting a long
 * text tokenizes many overlapping windows; counted whole each time, that was 96% of planning
 * the second embedding pass (140 s on a 200 MB export).
 */
function wordwiseCounter(countTokens: (text: string) => number): (text: string) => number {
  const base = countTokens('');
  const words = new Map<string, number>();
  return (text) => {
    let total = base;
    for (const word of text.split(ASCII_SPACES)) {
      if (word === '') continue;
      let tokens = words.get(word);
      if (tokens === undefined) {
        tokens = countTokens(word) - base;
        if (words.size >= WORD_MEMO) words.clear();
        words.set(word, tokens);
      }
      total += tokens;
    }
    return total;
  };
}

/**
 * {@link chunkText} with a tokenizer, cut by the word-by-word count and each chunk then counted
 * whole: should a tokenizer not add up over words (a normalizer that joins across spaces), the
 * text is cut again by whole counts, so no chunk ever passes `maxTokens`.
 */
export function tokenizerChunker(
  options: ChunkOptions,
  countTokens: (text: string) => number,
): (text: string) => TextChunk[] {
  const wordwise = wordwiseCounter(countTokens);
  return (text) => {
    const chunks = chunkText(text, options, wordwise).map((c) => ({
      ...c,
      tokens: c.text.length === 0 ? 0 : countTokens(c.text),
    }));
    const max = Math.max(1, options.maxTokens);
    return chunks.some((c) => c.tokens > max) ? chunkText(text, options, countTokens) : chunks;
  };
}
