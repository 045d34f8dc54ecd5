import { QueryError } from '../store.js';

/** What a piece of Cypher text is, once strings, comments and quoted names are told apart. */
export type CypherTokenKind = 'word' | 'quoted' | 'string' | 'param' | 'number' | 'symbol';

/** One token of a Cypher query (comments and whitespace are dropped). */
export interface CypherToken {
  kind: CypherTokenKind;
  /** The text as written (a string or quoted name with its quotes). */
  text: string;
  /** Where it starts in the query. */
  at: number;
}

const WORD_START = /[\p{L}_]/u;
const WORD_PART = /[\p{L}\p{N}_]/u;

/**
 * Splits Cypher into tokens the way the engines read it: `'…'` and `"…"` strings with
 * backslash escapes, `` `…` `` names (a doubled backtick inside), `//` and `/* *\/` comments,
 * `$` parameters. A string, name or comment left open is an error, never guessed at.
 */
export function tokenize(query: string): CypherToken[] {
  const tokens: CypherToken[] = [];
  let i = 0;
  const n = query.length;
  while (i < n) {
    const c = query[i] as string;
    const next = query[i + 1];
    if (/\s/u.test(c)) {
      i += 1;
    } else if (c === '/' && next === '/') {
      const end = query.indexOf('\n', i);
      i = end === -1 ? n : end + 1;
    } else if (c === '/' && next === '*') {
      const end = query.indexOf('*/', i + 2);
      if (end === -1) throw new QueryError('the query has a /* comment that is never closed');
      i = end + 2;
    } else if (c === "'" || c === '"') {
      const end = stringEnd(query, i);
      tokens.push({ kind: 'string', text: query.slice(i, end), at: i });
      i = end;
    } else if (c === '`') {
      const end = quotedEnd(query, i);
      tokens.push({ kind: 'quoted', text: query.slice(i, end), at: i });
      i = end;
    } else if (c === '$') {
      let end = i + 1;
      if (query[end] === '`') end = quotedEnd(query, end);
      else while (end < n && WORD_PART.test(query[end] as string)) end += 1;
      tokens.push({ kind: 'param', text: query.slice(i, end), at: i });
      i = end;
    } else if (WORD_START.test(c)) {
      let end = i + 1;
      while (end < n && WORD_PART.test(query[end] as string)) end += 1;
      tokens.push({ kind: 'word', text: query.slice(i, end), at: i });
      i = end;
    } else if (/[0-9]/.test(c)) {
      let end = i + 1;
      while (end < n && /[0-9A-Za-z_.]/.test(query[end] as string)) {
        // `1..3` is a range in a variable-length pattern, not a number.
        if (query[end] === '.' && query[end + 1] === '.') break;
        end += 1;
      }
      tokens.push({ kind: 'number', text: query.slice(i, end), at: i });
      i = end;
    } else {
      tokens.push({ kind: 'symbol', text: c, at: i });
      i += 1;
    }
  }
  return tokens;
}

// A string runs to the same quote not escaped by a backslash.
function stringEnd(query: string, start: number): number {
  const quote = query[start];
  let i = start + 1;
  while (i < query.length) {
    const c = query[i];
    if (c === '\\') i += 2;
    else if (c === quote) return i + 1;
    else i += 1;
  }
  throw new QueryError(`the query has a string (${quote ?? ''}…) that is never closed`);
}

// A quoted name runs to the next backtick that is not doubled.
function quotedEnd(query: string, start: number): number {
  let i = start + 1;
  while (i < query.length) {
    if (query[i] === '`') {
      if (query[i + 1] === '`') i += 2;
      else return i + 1;
    } else i += 1;
  }
  throw new QueryError('the query has a `quoted name` that is never closed');
}

/**
 * The query with every string blanked to `''`, every comment to spaces and quoted names kept,
 * so patterns over the text see only code.
 */
export function codeOnly(query: string): string {
  const parts: string[] = [];
  let last = 0;
  for (const token of tokenize(query)) {
    // Between tokens there is only whitespace and comments.
    parts.push(query.slice(last, token.at).replace(/\S/g, ' '));
    parts.push(token.kind === 'string' ? "''" : token.text);
    last = token.at + token.text.length;
  }
  parts.push(query.slice(last).replace(/\S/g, ' '));
  return parts.join('');
}
