import {
  prefixWords,
  searchTerms,
  type SearchNode,
  type SearchTerms,
} from '../../search/search-terms.js';

/** A search as FTS5 runs it. */
export interface FtsQuery {
  /** The MATCH expression. */
  match: string;
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
  const group = (n: SearchNode): string =>
    n.kind === 'term' ? expression(n) : `(${expression(n)})`;
  if (node.kind === 'any') return node.of.map(group).join(' OR ');
  // FTS5's NOT is binary: what must match, then each exclusion taken away.
  const include = node.include.map(group).join(' AND ');
  const base = node.include.length > 1 && node.exclude.length > 0 ? `(${include})` : include;
  return [base, ...node.exclude.map((n) => `NOT ${group(n)}`)].join(' ');
}

/** Turns what a person types into an FTS5 query (see {@link searchTerms}). */
export function toFtsQuery(text: string): FtsQuery | undefined {
  const parsed = searchTerms(text);
  if (!parsed) return undefined;
  return { match: expression(parsed.root), unranked: parsed.unranked, parsed };
}
