import { indexForm } from './porter-stem.js';
import { foldWord, queryStems, stemWord, type StemLanguage } from './stemming.js';

/**
 * Edit distance where a swap of two neighbouring letters is one edit, as people mistype
 * ("statrer" for "starter", "levian" for "levain": two edits for plain Levenshtein, so no
 * suggestion for a word under eight letters), as Lucene's fuzzy query counts it on Neo4j
 * (optimal string alignment). Stops early once it exceeds `max` (then `max + 1`).
 */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  let previousBest = 0;
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        value = Math.min(value, (before[j - 2] ?? 0) + 1);
      current.push(value);
      best = Math.min(best, value);
    }
    // A transposition reads two rows back, so a row's minimum bounds the result only with the
    // row before it: stop when both are past the bound.
    if (best > max && previousBest > max) return max + 1;
    before = previous;
    previous = current;
    previousBest = best;
  }
  return Math.min(previous[b.length] ?? max + 1, max + 1);
}

/** How far a suggestion may be from a word: one edit for short words, two from eight letters. */
export function allowedDistance(word: string): number {
  return word.length >= 8 ? 2 : 1;
}

/**
 * Words shorter than this get no suggestion: one edit from "dog" or "tune" is another word
 * ("do", "tue") far more often than the word meant.
 */
export const MIN_SUGGESTED_LENGTH = 5;

/** Indexed words (stems, as a full-text vocabulary lists them) nearest to `word`, best first. */
export function nearestTerms(
  word: string,
  candidates: readonly { term: string; count: number }[],
): string[] {
  const target = indexForm(word);
  const max = allowedDistance(target);
  if (foldWord(word).length < MIN_SUGGESTED_LENGTH) return [];
  return candidates
    .map((c) => ({ ...c, distance: editDistance(target, c.term, max) }))
    .filter((c) => c.distance <= max && c.term !== target)
    .sort((a, b) => a.distance - b.distance || b.count - a.count || a.term.localeCompare(b.term))
    .map((c) => c.term);
}

/**
 * Stems of a language's vocabulary (the stemmed table's, Snowball stems folded) nearest to
 * `word` stemmed in any of `languages`, best first. Snowball cuts a misspelt ending apart from
 * the right one ("logemant" → "logem", "logement" → "log"), so the distance allowed is the
 * typed word's, not the stem's.
 */
export function nearestLanguageTerms(
  word: string,
  candidates: readonly { term: string; count: number }[],
  languages: readonly StemLanguage[],
): string[] {
  const stems = queryStems(word, languages);
  const max = allowedDistance(foldWord(word));
  if (foldWord(word).length < MIN_SUGGESTED_LENGTH) return [];
  return candidates
    .map((c) => ({
      ...c,
      distance: Math.min(...stems.map((stem) => editDistance(stem, c.term, max))),
    }))
    .filter((c) => c.distance <= max && !stems.includes(c.term))
    .sort((a, b) => a.distance - b.distance || b.count - a.count || a.term.localeCompare(b.term))
    .map((c) => c.term);
}

/**
 * The word as people wrote it whose stem in one of `languages` is `term`, from texts where the
 * term occurs: of those, the nearest to what was typed ("wohnunk" → "wohnungen" when only the
 * plural was written). The term is near the typed word already ({@link nearestLanguageTerms}).
 */
export function languageSurfaceForm(
  typed: string,
  texts: readonly string[],
  term: string,
  languages: readonly StemLanguage[],
): string | undefined {
  // A stem near the typed word's can belong to a word far shorter than it ("lagar", Swedish, has
  // the Spanish stem "lag", one edit from the stem of "la"): a suggestion may be longer than
  // what was typed (a plural: "wohnunk" → "wohnungen"), but not shorter by more edits than the
  // typed word allows.
  const shortest = foldWord(typed).length - allowedDistance(foldWord(typed));
  return nearestToken(
    typed,
    texts,
    (candidate) =>
      foldWord(candidate).length >= shortest &&
      languages.some((language) => stemWord(candidate, language) === term),
  )?.token;
}

/**
 * The word as people write it, from texts where an indexed stem occurs: the token of those
 * texts nearest to what was typed (a vocabulary holds "decor", a person wrote "decorator").
 */
export function surfaceForm(
  typed: string,
  texts: readonly string[],
  stem?: string,
): string | undefined {
  const best = nearestToken(
    typed,
    texts,
    (candidate) => stem === undefined || indexForm(candidate) === stem,
  );
  if (!best) return undefined;
  // Only a word near what was typed, as written, is a suggestion: one edit between two stems
  // can be two between the words ("bridg" and "bring" of "bridge" and "bring").
  if (best.distance > allowedDistance(typed.toLowerCase())) return undefined;
  return best.token;
}

// The token of `texts` nearest to what was typed (not the typed word itself) that `fits`.
function nearestToken(
  typed: string,
  texts: readonly string[],
  fits: (candidate: string) => boolean,
): { token: string; distance: number } | undefined {
  const lower = typed.toLowerCase();
  let best: { token: string; distance: number } | undefined;
  for (const text of texts) {
    for (const [token] of text.matchAll(/[\p{L}\p{N}]+/gu)) {
      const candidate = token.toLowerCase();
      if (candidate === lower || !fits(candidate)) continue;
      const distance = editDistance(lower, candidate, best?.distance ?? Infinity);
      if (!best || distance < best.distance) best = { token: candidate, distance };
    }
  }
  return best;
}

/**
 * Of the English suggestion and the one from a stemmed language, the nearer to what was typed;
 * English's on a tie (most histories are in English).
 */
export function nearerSuggestion(
  typed: string,
  english: string | undefined,
  other: string | undefined,
): string | undefined {
  const lower = typed.toLowerCase();
  return other !== undefined &&
    (english === undefined || editDistance(lower, other) < editDistance(lower, english))
    ? other
    : english;
}

/** The search text with each replaced word (whole words, any case) swapped for its suggestion. */
export function rewriteSearch(text: string, replacements: ReadonlyMap<string, string>): string {
  return text.replace(/[\p{L}\p{N}]+/gu, (word) => replacements.get(word.toLowerCase()) ?? word);
}
