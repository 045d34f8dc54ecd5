import { thousands } from '../model/plural.js';
import { QueryError } from './query-error.js';
import { isAcronym } from './stemming.js';

// Words too common to rank by: BM25 gives them almost no weight, yet scoring them reads every
// message they are in (measured: "the", in 479,189 of 1,000,028 messages, 35 ms on its own).
const STOPWORDS = new Set(
  `a about above after again all also am an and any are as at be because been before being below
  between both but by can could did do does doing down during each few for from further had has have
  having he her here hers him his how i if in into is it its itself just me more most my no nor not
  now of off on once only or other our ours out over own same she should so some such than that the
  their theirs them then there these they this those through to too under until up very was we were
  what when where which while who whom why will with would you your yours`.split(/\s+/),
);

/** More terms than this is refused (Lucene refuses a query of over 1,024 clauses). */
export const MAX_TERMS = 200;
/**
 * More prefixes (`word*`) than this is refused as too broad: each is expanded to every indexed
 * word it starts (measured over 105,000 messages: 8 one-letter prefixes 0.7 s, 26 of them 1.2 s,
 * 182 of them 11 s).
 */
export const MAX_PREFIX_TERMS = 8;
/** Parentheses nested deeper than this are refused (FTS5 refuses deep expressions). */
export const MAX_DEPTH = 32;
/**
 * A longer search is refused: what a person or an agent asks fits in it many times over, and
 * every step after (stemming, spelling hints, the embedding) costs by its length.
 */
export const MAX_QUERY_CHARACTERS = 10_000;
/**
 * A longer word is refused (Lucene's tokens stop at 255): stemming one costs by the square of
 * its length (a word of 300,000 characters held a server for 41 s).
 */
export const MAX_WORD_CHARACTERS = 256;

/** Refuses a search longer than {@link MAX_QUERY_CHARACTERS}, before any work is done on it. */
export function checkQueryText(text: string): void {
  if (text.length > MAX_QUERY_CHARACTERS)
    throw new QueryError(
      `this search is ${thousands(text.length)} characters long: a search is at most ${thousands(MAX_QUERY_CHARACTERS)} characters`,
    );
}

/** One term of a search as a person typed it. */
export interface SearchTerm {
  kind: 'term';
  /** The word or the phrase's words, without quotes or `*`. */
  text: string;
  phrase: boolean;
  /** `word*`: any word starting with it. */
  prefix: boolean;
  /** A very common word, left out when other words are given. */
  stopword: boolean;
}

/** Everything in `include` must match and nothing in `exclude` (`NOT x`, `-x`) may. */
export interface AllOf {
  kind: 'all';
  /** Never empty. */
  include: SearchNode[];
  exclude: SearchNode[];
}

/** Any one of the alternatives (`a OR b`). */
export interface AnyOf {
  kind: 'any';
  /** Two or more. */
  of: SearchNode[];
}

/** A search, as a tree. */
export type SearchNode = SearchTerm | AllOf | AnyOf;

/** A parsed search. */
export interface SearchTerms {
  root: SearchNode;
  /** Only very common words were given: matches are listed, not ranked by them. */
  unranked: boolean;
  /** The plain words searched for (not excluded), for hints and snippets. */
  words: string[];
  /** The prefixes searched for (`word*`). */
  prefixes: string[];
}

type Token =
  | { type: 'word'; text: string; prefix: boolean }
  | { type: 'phrase'; text: string }
  | { type: 'open' | 'close' | 'or' | 'and' | 'not' };

/**
 * Splits what a person typed: `"…"` a phrase (closed at the end if left open), `(` and `)` at a
 * word's edges, a `-` right before a word, quote or `(` is NOT (`--force` stays a word), and
 * upper-case `OR`, `AND`, `NOT` are operators (lower-case ones are words).
 */
function tokenize(input: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < input.length) {
    const c = input[i] ?? '';
    if (/\s/.test(c)) {
      i++;
    } else if (c === '(' || c === ')') {
      tokens.push({ type: c === '(' ? 'open' : 'close' });
      i++;
    } else if (c === '-' && /^[^\s\-)]/.test(input[i + 1] ?? ' ')) {
      tokens.push({ type: 'not' });
      i++;
    } else if (c === '"') {
      const end = input.indexOf('"', i + 1);
      const stop = end === -1 ? input.length : end;
      tokens.push({ type: 'phrase', text: input.slice(i + 1, stop) });
      i = stop + 1;
      // `"a phrase"*`: the star is dropped (a phrase has no prefix form on both stores).
      while (input[i] === '*') i++;
    } else {
      let end = i;
      while (end < input.length && !/\s/.test(input[end] ?? '')) end++;
      // Closing parentheses, then stars, counted back from the end: one pass, whatever the word.
      const start = i;
      let last = end;
      while (last > start && input[last - 1] === ')') last--;
      const closes = end - last;
      let stem = last;
      while (stem > start && input[stem - 1] === '*') stem--;
      const word = input.slice(start, last);
      i = end;
      if (word === 'OR' || word === 'AND' || word === 'NOT') {
        tokens.push({ type: word === 'OR' ? 'or' : word === 'AND' ? 'and' : 'not' });
      } else if (word) {
        // A word of stars alone keeps them (it has no letter, and is dropped as such).
        const text = (stem > start ? input.slice(start, stem) : word).replace(/"/g, '');
        tokens.push({ type: 'word', text, prefix: stem < last && stem > start });
      }
      for (let k = 0; k < closes; k++) tokens.push({ type: 'close' });
    }
  }
  return tokens;
}

type Item = { node: SearchNode; negated: boolean };

class Parser {
  private at = 0;
  terms = 0;
  /** Prefix terms, excluded ones too (each costs its expansion). */
  prefixes = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token | undefined {
    return this.tokens[this.at];
  }

  // Alternatives separated by OR; an OR with nothing on one side is dropped.
  parseAny(depth: number): SearchNode | undefined {
    const alternatives = [this.parseAll(depth)];
    while (this.peek()?.type === 'or') {
      this.at++;
      alternatives.push(this.parseAll(depth));
    }
    const present = alternatives.filter((a): a is SearchNode => a !== undefined);
    const flat = present.flatMap((a) => (a.kind === 'any' ? a.of : [a]));
    if (flat.length <= 1) return flat[0];
    return { kind: 'any', of: flat };
  }

  // Terms side by side must all match; at the top level a stray `)` is ignored.
  private parseAll(depth: number): SearchNode | undefined {
    const items: Item[] = [];
    for (;;) {
      const token = this.peek();
      if (!token || token.type === 'or') break;
      if (token.type === 'close') {
        if (depth > 0) break;
        this.at++;
        continue;
      }
      if (token.type === 'and') {
        this.at++;
        continue;
      }
      let negated = false;
      while (this.peek()?.type === 'not') {
        this.at++;
        negated = !negated;
      }
      const node = this.parseAtom(depth);
      if (node) items.push({ node, negated });
    }
    return allOf(items);
  }

  private parseAtom(depth: number): SearchNode | undefined {
    const token = this.peek();
    if (!token) return undefined;
    if (token.type === 'open') {
      if (depth + 1 > MAX_DEPTH)
        throw new QueryError(`too many nested parentheses (at most ${MAX_DEPTH})`);
      this.at++;
      const inner = this.parseAny(depth + 1);
      // A `(` left open is closed at the end.
      if (this.peek()?.type === 'close') this.at++;
      return inner;
    }
    if (token.type === 'word' || token.type === 'phrase') {
      this.at++;
      const term = termOf(token);
      if (term?.prefix) this.prefixes++;
      if (term && ++this.terms > MAX_TERMS)
        throw new QueryError(`too many words in one search (at most ${MAX_TERMS})`);
      return term;
    }
    // OR, AND or NOT where a word should be: nothing here (the caller goes on).
    return undefined;
  }
}

function termOf(token: Token & { type: 'word' | 'phrase' }): SearchTerm | undefined {
  if (token.type === 'phrase') {
    const text = token.text.trim();
    if (!/[\p{L}\p{N}]/u.test(text)) return undefined;
    return { kind: 'term', text, phrase: true, prefix: false, stopword: false };
  }
  if (!/[\p{L}\p{N}]/u.test(token.text)) return undefined;
  if (token.text.length > MAX_WORD_CHARACTERS)
    throw new QueryError(
      `a word of ${thousands(token.text.length)} characters (${token.text.slice(0, 20)}…): a search word is at most ${MAX_WORD_CHARACTERS} characters`,
    );
  return {
    kind: 'term',
    text: token.text,
    phrase: false,
    prefix: token.prefix,
    stopword: !token.prefix && STOPWORDS.has(token.text.toLowerCase()),
  };
}

const ONLY_EXCLUDED =
  'nothing to search for: NOT and -word only leave words out; add a word to look for, as in "sourdough -levain"';

// Side-by-side items as one node: AND groups inside are merged, very common words dropped
// when something else is looked for.
function allOf(items: Item[]): SearchNode | undefined {
  const include: SearchNode[] = [];
  const exclude: SearchNode[] = [];
  for (const { node, negated } of items) {
    if (negated) exclude.push(node);
    else if (node.kind === 'all') {
      include.push(...node.include);
      exclude.push(...node.exclude);
    } else include.push(node);
  }
  if (include.length === 0) {
    if (exclude.length > 0) throw new QueryError(ONLY_EXCLUDED);
    return undefined;
  }
  const content = include.filter((n) => n.kind !== 'term' || !n.stopword);
  const kept = content.length > 0 ? content : include;
  if (kept.length === 1 && exclude.length === 0) return kept[0];
  return { kind: 'all', include: kept, exclude };
}

function positiveTerms(node: SearchNode): SearchTerm[] {
  if (node.kind === 'term') return [node];
  if (node.kind === 'any') return node.of.flatMap(positiveTerms);
  return node.include.flatMap(positiveTerms);
}

/**
 * Reads what a person types: words and "quoted phrases" must all match, `a OR b` either,
 * `NOT word` and `-word` leave out, `(…)` groups, `word*` is a prefix; words with no letter or
 * digit are dropped; very common words are left out when other words are given. Undefined when
 * nothing is left to search for; a {@link QueryError} for a search of exclusions only, or of
 * more than {@link MAX_TERMS} words, {@link MAX_PREFIX_TERMS} prefixes or {@link MAX_DEPTH}
 * nested parentheses, longer than {@link MAX_QUERY_CHARACTERS}, or with a word longer than
 * {@link MAX_WORD_CHARACTERS}.
 */
export function searchTerms(input: string): SearchTerms | undefined {
  checkQueryText(input);
  const parser = new Parser(tokenize(input));
  const root = parser.parseAny(0);
  if (parser.prefixes > MAX_PREFIX_TERMS)
    throw new QueryError(
      `too broad: ${parser.prefixes} prefix terms (word*) in one search, at most ${MAX_PREFIX_TERMS}: narrow it (longer words, fewer stars)`,
    );
  if (!root) return undefined;
  const positive = positiveTerms(root);
  return {
    root,
    unranked: positive.every((t) => t.stopword),
    words: positive.filter((t) => !t.prefix).map((t) => t.text),
    prefixes: positive.filter((t) => t.prefix).map((t) => t.text),
  };
}

/**
 * The whole words a prefix also stands for on a stemmed index, which stems what it holds but
 * not a prefix: the prefix itself and, unless it ends in "e", the prefix with an "e" (the
 * stemmer gives "decorator", "decorating" and "decorate" one stem, "decor", which `decorat*`
 * alone would miss). Each is stemmed by the store as any word is.
 */
export function prefixWords(prefix: string): string[] {
  return prefix.endsWith('e') ? [prefix] : [prefix, `${prefix}e`];
}

/**
 * The words in capitals every match must hold (alone, or among the words all required): an
 * English stemmer makes "na" of "NAS", so a store checks them as written.
 */
export function requiredAcronyms(root: SearchNode): string[] {
  const terms = root.kind === 'term' ? [root] : root.kind === 'all' ? root.include : [];
  return terms.flatMap((n) =>
    n.kind === 'term' && !n.prefix && !n.phrase && isAcronym(n.text) ? [n.text] : [],
  );
}
