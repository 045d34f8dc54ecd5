// The rule that keeps the recall quality set honest: a query may share no content word with the
// conversation it targets, so keyword search cannot find it by spelling alone and only meaning
// can. Two words count as shared when they are equal, have the same Porter stem, or one starts
// with the other and the shorter has at least 5 letters ("decorat" / "decorators"); for a query
// in another language than English also when they are equal without accents or share a Snowball
// stem in any language keyword search stems (a French query over a German conversation
// included). The English set keeps the English rule it was written to.
import { porterStem } from '../../dist/search/porter-stem.js';
import { foldWord, queryStems } from '../../dist/search/stemming.js';

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

// Function words of the other languages a query may be written in (articles, pronouns,
// prepositions, auxiliaries): leaving them out of a query's words, like English's above.
const otherStopwords = {
  fr: `le la les l un une des du de d au aux et ou mais donc ni car que qu qui quoi dont où ce
  cet cette ces je j me m moi tu te t toi il elle on nous vous ils elles se s sa son ses mon ma
  mes ton ta tes notre nos votre vos leur leurs en y ne n pas plus à dans par pour sur avec sans
  sous est sont suis es être avoir ai as a ont avez avons été fait faire quand comment pourquoi
  quel quelle quels quelles si ça cela très tout tous toute toutes`,
  de: `der die das den dem des ein eine einen einem einer eines und oder aber doch ich du er sie
  es wir ihr mich mir dich dir sich uns euch mein meine meinem meinen meiner dein sein seine ihre
  unser unsere unserer in im an am auf aus bei mit nach von vom zu zum zur für über unter um ohne
  gegen ab ihn ihm ist sind bin bist war waren wird werden wurde hat haben habe hatte kann können muss
  müssen soll sollte will nicht kein keine keinen wie was wann warum wo wer wenn dass damit ob
  noch schon auch nur sehr so da dann hier`,
  es: `el la los las lo un una unos unas y o u pero ni que qué quien quién de del a al en con
  por para sin sobre ante entre hasta desde yo tú él ella nosotros vosotros ellos ellas me te se nos
  os le les mi mis tu tus su sus nuestro nuestra es son soy eres era fue ser estar está están
  estoy he ha han hay haber no sí más muy como cómo cuando cuándo donde dónde por qué porque este
  esta esto ese esa eso`,
  pt: `o a os as um uma uns umas e ou mas nem que quem de do da dos das em no na nos nas num numa
  ao aos à às por pelo pela para com sem sobre entre até eu tu ele ela nós vós eles elas me te se
  lhe lhes meu minha meus minhas teu tua seu sua seus suas nosso nossa é são sou era foi ser
  estar está estão estou tem têm ter há não sim mais muito como quando onde porque porquê este
  esta isto esse essa isso aquele aquela`,
};
const stopwordsOf = Object.fromEntries(
  Object.entries(otherStopwords).map(([language, words]) => [
    language,
    new Set([...stopwords, ...words.split(/\s+/)]),
  ]),
);

/**
 * The lower-case content words of `text`: letters and digits, stopwords left out (English's, and
 * those of `language` when it is one of the others).
 */
export function contentWords(text, language = 'en') {
  const skipped = stopwordsOf[language] ?? stopwords;
  return new Set(
    text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word.length > 0 && !skipped.has(word)),
  );
}

/** Whether two content words count as the same word under the rule above. */
export function sameWord(a, b, language = 'en') {
  const english = language === 'en';
  const [x, y] = english ? [a, b] : [foldWord(a), foldWord(b)];
  if (x === y) return true;
  const [shorter, longer] = x.length <= y.length ? [x, y] : [y, x];
  if (shorter.length >= 5 && longer.startsWith(shorter)) return true;
  if (porterStem(a) === porterStem(b)) return true;
  if (english) return false;
  const stems = new Set(queryStems(a));
  return queryStems(b).some((stem) => stems.has(stem));
}

/**
 * The pairs `[queryWord, targetWord]` that a query (written in `language`, English by default)
 * shares with its target's text; empty when the query is a clean paraphrase.
 */
export function sharedWords(query, targetText, language = 'en') {
  const targetWords = [...contentWords(targetText)];
  const stems = new Map(targetWords.map((word) => [porterStem(word), word]));
  const shared = [];
  for (const word of contentWords(query, language)) {
    const match =
      stems.get(porterStem(word)) ?? targetWords.find((t) => sameWord(word, t, language));
    if (match !== undefined) shared.push([word, match]);
  }
  return shared;
}
