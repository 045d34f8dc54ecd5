import { prefixWords, searchTerms, type SearchNode } from '../../search/search-terms.js';
import { foldWord, queryStems, stemText } from '../../search/stemming.js';
import { STEMS_LANGUAGES } from '../batch-language.js';

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
  return combine(node, clause);
}

/**
 * One node as a clause over the stemmed index (as message_stems on the embedded store): a word
 * as any of its stems, a phrase as its words stemmed in one language or another, a prefix as
 * the word folded (stems are shorter).
 */
function stemsClause(node: SearchNode): string {
  if (node.kind === 'term') {
    if (node.prefix) return `${escape(foldWord(node.text))}*`;
    const forms = node.phrase
      ? [...new Set(STEMS_LANGUAGES.map((language) => stemText(node.text, language)))].map(
          (form) => `"${escape(form)}"`,
        )
      : queryStems(node.text, STEMS_LANGUAGES).map(escape);
    const alternatives = forms.filter((form) => form !== '' && form !== '""');
    if (alternatives.length === 0) return escape(node.text);
    return alternatives.length === 1 ? (alternatives[0] ?? '') : `(${alternatives.join(' OR ')})`;
  }
  return combine(node, stemsClause);
}

function combine(
  node: Exclude<SearchNode, { kind: 'term' }>,
  term: (n: SearchNode) => string,
): string {
  if (node.kind === 'any') return `(${node.of.map(term).join(' OR ')})`;
  const parts = [
    ...node.include.map((n) => `+${term(n)}`),
    ...node.exclude.map((n) => `-${term(n)}`),
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

/** The same search over the stemmed index (see {@link stemsClause}). */
export function toLuceneStemsQuery(text: string): string | undefined {
  const parsed = searchTerms(text);
  if (!parsed) return undefined;
  const root = parsed.root;
  return root.kind === 'term' ? `+${stemsClause(root)}` : stemsClause(root);
}

/** A fuzzy Lucene query for one word (`word~`): the nearest indexed words by edit distance. */
export function fuzzyLuceneQuery(word: string): string {
  return `${escape(word)}~`;
}
