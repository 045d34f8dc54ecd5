import { porterStem } from '../search/porter-stem.js';
import type { SearchNode } from '../search/search-terms.js';
import type { GraphBatch } from '../graph/graph-batch.js';

/**
 * The pure part of the pairs of common words (word-pairs.ts, issue 46): which words make a pair,
 * and a text's pairs cut and stemmed in JS, without a database. Apart from the SQLite writer so
 * that the conversion worker computes them (see {@link notePairs}) off the import's main thread,
 * which runs every SQLite write.
 */

/**
 * English stop words (search-terms.ts's, and a few more) and the commonest function words of
 * French, German, Spanish, Portuguese and Italian that are written in ASCII.
 */
export const PAIR_WORDS: readonly string[] =
  `a about above after again all also am an and any are as at
  be because been before being below between both but by can could did do does doing down during
  each few for from further had has have having he her here hers him his how i if in into is it its
  itself just me more most my no nor not now of off on once only or other our ours out over own same
  she should so some such than that the their theirs them then there these they this those through
  to too under until up very was we were what when where which while who whom why will with would
  you your yours
  au aux ce ces dans de des du elle en est et il ils je la le les leur mais ne nous on ou par pas
  pour qu que qui sa se son sur un une vous
  auch auf aus bei das dem den der des die ein eine einen er es ich ist mit nicht sich sie und von
  wir zu
  al como con del el es las lo los mas para pero por se su sus un una y
  ao com da das do dos em na nas no nos os um uma
  che di gli il nel non per sono`
    .split(/\s+/)
    .filter((word) => word !== '');

/**
 * The longest token a pair is made of: FTS5's porter leaves longer ones as they are, and
 * cuts any token at 32,768 bytes, where a pair's token would be cut elsewhere.
 */
export const LONGEST_TOKEN = 64;

/**
 * What FTS5's porter tokenizer makes of a token unicode61 gave it (lower case): tokens of fewer
 * than 3 or more than 64 bytes are left as they are (fts5PorterCb). Cached: tokens repeat.
 */
function indexedForm(token: string): string {
  if (token.length < 3 || token.length > LONGEST_TOKEN) return token;
  let stem = known.get(token);
  if (stem === undefined) {
    stem = porterStem(token);
    if (known.size > 200_000) known.clear();
    known.set(token, stem);
  }
  return stem;
}
const known = new Map<string, string>();

/** The words of {@link PAIR_WORDS} as message_fts indexes them (porter). */
export const PAIR_STEMS: ReadonlySet<string> = new Set(PAIR_WORDS.map((word) => indexedForm(word)));

/**
 * Characters outside ASCII that unicode61 (SQLite's tables as bundled) reads as separators and
 * never as part of a token or a diacritic: typographic punctuation, arrows, symbols, box
 * drawing, emoji. A text with only these beyond ASCII is cut into tokens here; any other
 * character sends the text to FTS5's own tokenizer ({@link pairsWriter}).
 * `src/stores/sqlite/word-pairs.test.ts` checks each of them against FTS5.
 */
export const SEPARATOR_RANGES = `a0-a9 ab-b1 b4 b6-b8 bb bf d7 f7 2000-2064 206a-206f 20a0-20b9 2190-23f3 2500-26ff 2701-2775 2794-2b4c 3000-3004 3008-3020 3030 3036-3037 303d-303f fe0f ff01-ff0f ff1a-ff20 ff3b-ff40 ff5b-ff65 ffe0-ffe6 ffe8-ffee 1f300-1f320 1f330-1f335 1f337-1f37c 1f380-1f393 1f3a0-1f3c4 1f3c6-1f3ca 1f3e0-1f3f0 1f400-1f43e 1f440 1f442-1f4f7 1f4f9-1f4fc 1f500-1f53d 1f540-1f543 1f550-1f567 1f5fb-1f640 1f645-1f64f 1f680-1f6c5`;

const SEPARATORS = new RegExp(
  `[${SEPARATOR_RANGES.split(' ')
    .map((range) =>
      range
        .split('-')
        .map((code) => `\\u{${code}}`)
        .join('-'),
    )
    .join('')}]`,
  'gu',
);

const ASCII_TOKEN = /[a-z0-9]+/g;

/**
 * The pairs of a text tokenized here, as the pairs table's content (a pair once per time it
 * occurs, joined by spaces; '' for none); undefined when the text has a character only FTS5
 * can tokenize.
 */
export function pairsOfText(text: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  if (/[^\u0000-\u007f]/.test(text) && /[^\u0000-\u007f]/.test(text.replace(SEPARATORS, ' ')))
    return undefined;
  const tokens = text.toLowerCase().match(ASCII_TOKEN) ?? [];
  return pairsOf(tokens.map(indexedForm));
}

/** A pair's token: two stems joined (`the_and`). */
const pairOf = (a: string, b: string): string | undefined =>
  (PAIR_STEMS.has(a) || PAIR_STEMS.has(b)) && a.length <= LONGEST_TOKEN && b.length <= LONGEST_TOKEN
    ? `${a}_${b}`
    : undefined;

/**
 * A row's pairs: each adjacent pair with a word of the list, once, and for a pair found `c`
 * times, `pair_2` … `pair_c` too (how many times a phrase is in a row, which bm25 weighs, read
 * from lists far shorter than the pair's: see pair-ranking.ts).
 */
export function pairsOf(stems: readonly (string | undefined)[]): string {
  const counts = new Map<string, number>();
  for (let i = 0; i + 1 < stems.length; i++) {
    const a = stems[i];
    const b = stems[i + 1];
    const pair = a === undefined || b === undefined ? undefined : pairOf(a, b);
    if (pair !== undefined) counts.set(pair, (counts.get(pair) ?? 0) + 1);
  }
  const tokens: string[] = [];
  for (const [pair, count] of counts) {
    tokens.push(pair);
    for (let c = 2; c <= count; c++) tokens.push(`${pair}_${c}`);
  }
  return tokens.join(' ');
}

/**
 * The pair token a search is read from instead of message_fts: a phrase (not a prefix) of two
 * words of the list, ASCII; undefined for any other search.
 */
export function phrasePair(root: SearchNode): string | undefined {
  if (root.kind !== 'term' || !root.phrase || root.prefix) return undefined;
  // eslint-disable-next-line no-control-regex
  if (/[^\u0000-\u007f]/.test(root.text)) return undefined;
  const [a, b, ...more] = (root.text.toLowerCase().match(ASCII_TOKEN) ?? []).map(indexedForm);
  return a === undefined || b === undefined || more.length > 0 ? undefined : pairOf(a, b);
}

/**
 * Gives each message of a batch its pairs (`GraphNode.pairs`), as the SQLite writer would
 * compute them: the conversion worker's share of the writer's work (it is idle two thirds of an
 * import; the main thread, which writes, is busy all of it). A text only FTS5 can cut keeps no
 * pairs here: the writer cuts it with FTS5. Returns the batch, changed in place.
 */
export function notePairs(batch: GraphBatch): GraphBatch {
  for (const node of batch.nodes) {
    if (node.label !== 'Message') continue;
    const { content } = node.properties;
    const pairs = typeof content === 'string' ? pairsOfText(content) : undefined;
    if (pairs !== undefined) node.pairs = pairs;
  }
  return batch;
}
