import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

// nlp.js packages are CommonJS; each stemmer's own file (module.exports = Stemmer<Xx>) is
// loaded on first use, not the package's index: that read every language's sentiment lexicons
// and dictionaries too (0.15 s of a cold search's 64k-message answer, issue 46). English's
// stemmer is in @nlpjs/lang-en's own dependency, resolved from it. The CLI's bundle holds these
// files (scripts/bundle.mjs reads this table): a search read them and @nlpjs/core's, 35
// CommonJS files, one by one at each start.
const STEMMERS = {
  en: { from: '@nlpjs/lang-en', file: '@nlpjs/lang-en-min/src/stemmer-en.js' },
  fr: { from: '@nlpjs/lang-fr', file: '@nlpjs/lang-fr/src/stemmer-fr.js' },
  de: { from: '@nlpjs/lang-de', file: '@nlpjs/lang-de/src/stemmer-de.js' },
  es: { from: '@nlpjs/lang-es', file: '@nlpjs/lang-es/src/stemmer-es.js' },
  pt: { from: '@nlpjs/lang-pt', file: '@nlpjs/lang-pt/src/stemmer-pt.js' },
  it: { from: '@nlpjs/lang-it', file: '@nlpjs/lang-it/src/stemmer-it.js' },
  nl: { from: '@nlpjs/lang-nl', file: '@nlpjs/lang-nl/src/stemmer-nl.js' },
} as const;

/** A language's stemmer class, as its package's `Stemmer<Xx>` export is. */
export function stemmerClass(language: keyof typeof STEMMERS): unknown {
  const { from, file } = STEMMERS[language];
  return createRequire(require.resolve(from))(file);
}
