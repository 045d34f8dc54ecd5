/**
 * Martin Porter's stemmer (the revised original, as SQLite FTS5's `porter` tokenizer and
 * Lucene's PorterStemFilter run it), so a snippet marks "decorator" when "decorators" was
 * searched. Only used to mark matches: the stores stem for search themselves.
 */

const VOWELS = new Set(['a', 'e', 'i', 'o', 'u']);

function consonant(word: string, i: number): boolean {
  const c = word[i] ?? '';
  if (VOWELS.has(c)) return false;
  if (c === 'y') return i === 0 ? true : !consonant(word, i - 1);
  return true;
}

// The number of vowel-consonant sequences: [C](VC){m}[V].
function measure(stem: string): number {
  let n = 0;
  let i = 0;
  while (i < stem.length && consonant(stem, i)) i++;
  while (i < stem.length) {
    while (i < stem.length && !consonant(stem, i)) i++;
    if (i >= stem.length) break;
    while (i < stem.length && consonant(stem, i)) i++;
    n++;
  }
  return n;
}

function hasVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!consonant(stem, i)) return true;
  return false;
}

function doubleConsonant(word: string): boolean {
  const n = word.length;
  return n >= 2 && word[n - 1] === word[n - 2] && consonant(word, n - 1);
}

// Consonant-vowel-consonant, the last not w, x or y (hop, not hoop or bow).
function cvc(word: string): boolean {
  const n = word.length;
  if (n < 3) return false;
  if (!consonant(word, n - 3) || consonant(word, n - 2) || !consonant(word, n - 1)) return false;
  return !'wxy'.includes(word[n - 1] ?? '');
}

/** Replaces the first (longest) listed suffix the word ends with, when its stem measures more than `min`. */
function replaceSuffix(
  word: string,
  rules: readonly (readonly [string, string])[],
  min: number,
): string {
  for (const [suffix, replacement] of rules) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, word.length - suffix.length);
    return measure(stem) > min ? stem + replacement : word;
  }
  return word;
}

// Longest first, as the suffix lists are read.
const STEP2: readonly (readonly [string, string])[] = (
  [
    ['ational', 'ate'],
    ['tional', 'tion'],
    ['enci', 'ence'],
    ['anci', 'ance'],
    ['izer', 'ize'],
    ['bli', 'ble'],
    ['alli', 'al'],
    ['entli', 'ent'],
    ['eli', 'e'],
    ['ousli', 'ous'],
    ['ization', 'ize'],
    ['ation', 'ate'],
    ['ator', 'ate'],
    ['alism', 'al'],
    ['iveness', 'ive'],
    ['fulness', 'ful'],
    ['ousness', 'ous'],
    ['aliti', 'al'],
    ['iviti', 'ive'],
    ['biliti', 'ble'],
    ['logi', 'log'],
  ] as const
).toSorted((a, b) => b[0].length - a[0].length);

const STEP3: readonly (readonly [string, string])[] = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];

const STEP4 = [
  'ement',
  'ance',
  'ence',
  'able',
  'ible',
  'ment',
  'ant',
  'ent',
  'ion',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
  'al',
  'er',
  'ic',
  'ou',
];

function step1(word: string): string {
  let w = word;
  if (w.endsWith('sses')) w = w.slice(0, -2);
  else if (w.endsWith('ies')) w = w.slice(0, -2);
  else if (!w.endsWith('ss') && w.endsWith('s')) w = w.slice(0, -1);
  if (w.endsWith('eed')) {
    if (measure(w.slice(0, -3)) > 0) w = w.slice(0, -1);
  } else {
    const suffix = w.endsWith('ed') ? 2 : w.endsWith('ing') ? 3 : 0;
    if (suffix > 0 && hasVowel(w.slice(0, -suffix))) {
      w = w.slice(0, -suffix);
      if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) w += 'e';
      else if (doubleConsonant(w) && !'lsz'.includes(w.at(-1) ?? '')) w = w.slice(0, -1);
      else if (measure(w) === 1 && cvc(w)) w += 'e';
    }
  }
  if (w.endsWith('y') && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  return w;
}

function step4(word: string): string {
  for (const suffix of STEP4) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, word.length - suffix.length);
    if (suffix === 'ion' && !/[st]$/.test(stem)) return word;
    return measure(stem) > 1 ? stem : word;
  }
  return word;
}

function step5(word: string): string {
  let w = word;
  if (w.endsWith('e')) {
    const stem = w.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !cvc(stem))) w = stem;
  }
  if (w.endsWith('ll') && measure(w) > 1) w = w.slice(0, -1);
  return w;
}

/** The Porter stem of a lower-case word (words of fewer than three letters are left as they are). */
export function porterStem(word: string): string {
  if (word.length < 3) return word;
  let w = step1(word);
  w = replaceSuffix(w, STEP2, 0);
  w = replaceSuffix(w, STEP3, 0);
  w = step4(w);
  return step5(w);
}

/** A word as the stores index it: lower case, accents removed (FTS5's `remove_diacritics`), stemmed. */
export function indexForm(word: string): string {
  return porterStem(word.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase());
}
