// The rule that keeps the recall quality set honest: a query may share no content word with the
// conversation it targets, so keyword search cannot find it by spelling alone and only meaning
// can. Two words count as shared when they are equal, have the same Porter stem, or one starts
// with the other and the shorter has at least 5 letters ("decorat" / "decorators").
import { porterStem } from '../../dist/search/porter-stem.js';

// NLTK's English stopword list, plus the modal verbs it lacks (would, could, might, must, shall)
// and the contraction tails a split on apostrophes leaves (t, s, ll, re, ve, d, m).
const stopwords = new Set(
  `i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she
  her hers herself it its itself they them their theirs themselves what which who whom this that
  these those am is are was were be been being have has had having do does did doing a an the and
  but if or because as until while of at by for with about against between into through during
  before after above below to from up down in out on off over under again further then once here
  there when where why how all any both each few more most other some such no nor not only own
  same so than too very s t can will just don should now d ll m o re ve y ain aren couldn didn
  doesn hadn hasn haven isn ma mightn mustn needn shan shouldn wasn weren won wouldn would could
  might must shall`.split(/\s+/),
);

/** The lower-case content words of `text`: letters and digits, stopwords left out. */
export function contentWords(text) {
  return new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word.length > 0 && !stopwords.has(word)),
  );
}

/** Whether two content words count as the same word under the rule above. */
export function sameWord(a, b) {
  if (a === b) return true;
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  if (shorter.length >= 5 && longer.startsWith(shorter)) return true;
  return porterStem(a) === porterStem(b);
}

/**
 * The pairs `[queryWord, targetWord]` that a query shares with its target's text; empty when the
 * query is a clean paraphrase.
 */
export function sharedWords(query, targetText) {
  const targetWords = [...contentWords(targetText)];
  const stems = new Map(targetWords.map((word) => [porterStem(word), word]));
  const shared = [];
  for (const word of contentWords(query)) {
    const match = stems.get(porterStem(word)) ?? targetWords.find((t) => sameWord(word, t));
    if (match !== undefined) shared.push([word, match]);
  }
  return shared;
}
