import { searchTerms } from '../../search/search-terms.js';

/** A search as FTS5 runs it. */
export interface FtsQuery {
  /** The MATCH expression. */
  match: string;
  /** Only very common words were given: matches are listed newest first, not ranked. */
  unranked: boolean;
}

/**
 * Turns what a person types into an FTS5 query (see {@link searchTerms}); every term is
 * quoted, so no input is an FTS5 syntax error.
 */
export function toFtsQuery(text: string): FtsQuery | undefined {
  const parsed = searchTerms(text);
  if (!parsed) return undefined;
  const match = parsed.terms
    .map((t) => `"${t.text.replace(/"/g, '""')}"${t.prefix ? '*' : ''}`)
    .join(' ');
  return { match, unranked: parsed.unranked };
}
