import { searchTerms } from '../../search/search-terms.js';

// Lucene's query syntax characters; escaped so no input is a syntax error.
const SPECIAL = /[+\-&|!(){}[\]^"~*?:\\/]/g;

/**
 * Turns what a person types into a Lucene query for Neo4j's full-text index (see
 * {@link searchTerms}): every term required, phrases quoted, `word*` a prefix, and Lucene's
 * operators (AND, OR, NOT as words) taken as words.
 */
export function toLuceneQuery(text: string): string | undefined {
  const parsed = searchTerms(text);
  if (!parsed) return undefined;
  return parsed.terms
    .map((t) => {
      const escaped = t.text.toLowerCase().replace(SPECIAL, (c) => `\\${c}`);
      return t.phrase ? `+"${escaped}"` : `+${escaped}${t.prefix ? '*' : ''}`;
    })
    .join(' ');
}
