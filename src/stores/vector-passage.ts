import { makeSnippet, snippetTerms } from '../search/snippet.js';
import { MATCH_END, MATCH_START } from './store.js';

// A hit by meaning has no words to mark: the snippet is the passage the vector was made of.
const NO_TERMS = snippetTerms('');

/** The snippet of a hit by meaning: the part of `text` its vector covers, shortened as any snippet is. */
export function passageSnippet(text: string, passage: { start: number; end: number }): string {
  return makeSnippet(text.slice(passage.start, passage.end), NO_TERMS, MATCH_START, MATCH_END);
}
