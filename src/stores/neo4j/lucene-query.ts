import { prefixWords, searchTerms, type SearchNode } from '../../search/search-terms.js';

// Lucene's query syntax characters; escaped so no input is a syntax error.
const SPECIAL = /[+\-&|!(){}[\]^"~*?:\\/]/g;

const escape = (text: string): string => text.toLowerCase().replace(SPECIAL, (c) => `\\${c}`);

/**
 * One node as a Lucene clause. A prefix also matches the stems of {@link prefixWords}: the
 * index stems what it holds but Lucene does not stem a prefix, so `decorat*` alone would miss
 * "decorator".
 */
function clause(node: SearchNode): string {
  if (node.kind === 'term') {
    const text = escape(node.text);
    if (node.phrase) return `"${text}"`;
    return node.prefix
      ? `(${[`${text}*`, ...prefixWords(node.text).map(escape)].join(' OR ')})`
      : text;
  }
  if (node.kind === 'any') return `(${node.of.map(clause).join(' OR ')})`;
  const parts = [
    ...node.include.map((n) => `+${clause(n)}`),
    ...node.exclude.map((n) => `-${clause(n)}`),
  ];
  return `(${parts.join(' ')})`;
}

/**
 * Turns what a person types into a Lucene query for Neo4j's full-text index (see
 * {@link searchTerms}): words required, `OR` alternatives, `NOT`/`-` exclusions, phrases quoted,
 * `word*` a prefix; every other Lucene character is escaped and taken as text.
 */
export function toLuceneQuery(text: string): string | undefined {
  const parsed = searchTerms(text);
  if (!parsed) return undefined;
  const root = parsed.root;
  return root.kind === 'term' ? `+${clause(root)}` : clause(root);
}

/** A fuzzy Lucene query for one word (`word~`): the nearest indexed words by edit distance. */
export function fuzzyLuceneQuery(word: string): string {
  return `${escape(word)}~`;
}
