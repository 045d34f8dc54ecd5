import {
  prefixWords,
  requiredAcronyms,
  searchTerms,
  type SearchNode,
  type SearchTerms,
} from '../../search/search-terms.js';
import { foldWord, queryStems, stemText } from '../../search/stemming.js';
import { STEMS_LANGUAGES } from '../batch-language.js';

/** A search as FTS5 runs it. */
export interface FtsQuery {
  /** The MATCH expression over message_fts and attachment_fts (porter). */
  match: string;
  /** The MATCH expression over message_stems (each word stemmed in every stemmed language). */
  stems: string;
  /**
   * Words in capitals (NAS) every match must hold: porter indexes "NAS" as "na", so a match of
   * message_fts or attachment_fts must also hold each of them as written (the stemmed table
   * keeps capitals whole).
   */
  acronyms: string[];
  /** Only very common words were given: matches are listed newest first, not ranked. */
  unranked: boolean;
  /** The search as parsed (for snippets and hints). */
  parsed: SearchTerms;
}

const quoted = (text: string): string => `"${text.replace(/"/g, '""')}"`;

/**
 * One node as an FTS5 expression. Every term is quoted, so no input is an FTS5 syntax error. A
 * prefix also matches the stems of {@link prefixWords}: the porter tokenizer stems what it
 * indexes but not a prefix, so `decorat*` alone would miss "decorator" (indexed as "decor").
 */
function expression(node: SearchNode): string {
  if (node.kind === 'term') {
    if (node.prefix)
      return `(${[`${quoted(node.text)}*`, ...prefixWords(node.text).map(quoted)].join(' OR ')})`;
    return quoted(node.text);
  }
  return combine(node, expression);
}

/**
 * One node as an expression over message_stems: a word as any of its stems, a phrase as its
 * words stemmed in one language or another, a prefix as the word folded (stems are shorter).
 */
function stemsExpression(node: SearchNode): string {
  if (node.kind === 'term') {
    if (node.prefix) return `${quoted(foldWord(node.text))}*`;
    const forms = node.phrase
      ? [...new Set(STEMS_LANGUAGES.map((language) => stemText(node.text, language)))]
      : queryStems(node.text, STEMS_LANGUAGES);
    const alternatives = forms.filter((form) => form !== '').map(quoted);
    if (alternatives.length === 0) return quoted(node.text);
    return alternatives.length === 1 ? (alternatives[0] ?? '') : `(${alternatives.join(' OR ')})`;
  }
  return combine(node, stemsExpression);
}

function combine(
  node: Exclude<SearchNode, { kind: 'term' }>,
  term: (n: SearchNode) => string,
): string {
  const group = (n: SearchNode): string => (n.kind === 'term' ? term(n) : `(${term(n)})`);
  if (node.kind === 'any') return node.of.map(group).join(' OR ');
  // FTS5's NOT is binary: what must match, then each exclusion taken away.
  const include = node.include.map(group).join(' AND ');
  const base = node.include.length > 1 && node.exclude.length > 0 ? `(${include})` : include;
  return [base, ...node.exclude.map((n) => `NOT ${group(n)}`)].join(' ');
}

/**
 * A search of one thing that must match and things it must not hold (`a -b`, `a* -b -"c d"`):
 * the MATCH expressions of what must match and of any of the exclusions, over message_fts's
 * tokenizer and over message_stems's (what each conversation's words are matched with, see
 * conversation-count.ts). Undefined for any other search.
 */
export interface Exclusion {
  include: string;
  includeStems: string;
  exclude: string;
  excludeStems: string;
}

export function exclusionOf(root: SearchNode): Exclusion | undefined {
  if (root.kind !== 'all' || root.exclude.length === 0) return undefined;
  const [include, ...others] = root.include;
  if (include === undefined || others.length > 0) return undefined;
  const exclude: SearchNode =
    root.exclude.length === 1 && root.exclude[0] !== undefined
      ? root.exclude[0]
      : { kind: 'any', of: root.exclude };
  return {
    include: expression(include),
    includeStems: stemsExpression(include),
    exclude: expression(exclude),
    excludeStems: stemsExpression(exclude),
  };
}

/** Turns what a person types into an FTS5 query (see {@link searchTerms}). */
export function toFtsQuery(text: string): FtsQuery | undefined {
  const parsed = searchTerms(text);
  if (!parsed) return undefined;
  return {
    match: expression(parsed.root),
    stems: stemsExpression(parsed.root),
    acronyms: requiredAcronyms(parsed.root),
    unranked: parsed.unranked,
    parsed,
  };
}
