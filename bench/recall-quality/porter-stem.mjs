// The Porter (1980) stemming algorithm, as published by Martin Porter ("An algorithm for suffix
// stripping", Program 14(3)), written out here so the quality benchmark's word-overlap check
// needs no extra dependency. `porterStem('relational') === 'relat'`.

const step2Suffixes = [
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
];
const step3Suffixes = [
  ['icate', 'ic'],
  ['ative', ''],
  ['alize', 'al'],
  ['iciti', 'ic'],
  ['ical', 'ic'],
  ['ful', ''],
  ['ness', ''],
];
// Longer suffixes come before their tails (ement, ment, ent): Porter takes the longest match.
const step4Suffixes = [
  'al',
  'ance',
  'ence',
  'er',
  'ic',
  'able',
  'ible',
  'ant',
  'ement',
  'ment',
  'ent',
  'ion',
  'ou',
  'ism',
  'ate',
  'iti',
  'ous',
  'ive',
  'ize',
];

/** Whether the letter at `i` is a consonant in Porter's sense (`y` after a consonant is a vowel). */
function isConsonant(word, i) {
  const c = word[i];
  if ('aeiou'.includes(c)) return false;
  if (c === 'y') return i === 0 || !isConsonant(word, i - 1);
  return true;
}

/** Porter's m: the number of vowel-consonant sequences in `stem`. */
function measure(stem) {
  let m = 0;
  let i = 0;
  const n = stem.length;
  while (i < n && isConsonant(stem, i)) i++;
  while (i < n) {
    while (i < n && !isConsonant(stem, i)) i++;
    if (i >= n) break;
    while (i < n && isConsonant(stem, i)) i++;
    m++;
  }
  return m;
}

const hasVowel = (stem) => [...stem].some((_, i) => !isConsonant(stem, i));
const endsDoubleConsonant = (w) =>
  w.length >= 2 && w.at(-1) === w.at(-2) && isConsonant(w, w.length - 1);
// *o: the stem ends consonant-vowel-consonant, the last not w, x or y (hop, not hoop or snow).
const endsCvc = (w) =>
  w.length >= 3 &&
  isConsonant(w, w.length - 3) &&
  !isConsonant(w, w.length - 2) &&
  isConsonant(w, w.length - 1) &&
  !'wxy'.includes(w.at(-1));

/** Replaces the first suffix of `table` that `word` ends with, when the stem's m exceeds `min`. */
function replaceSuffix(word, table, min) {
  for (const [suffix, replacement] of table) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    return measure(stem) > min ? stem + replacement : word;
  }
  return word;
}

function step1ab(word) {
  let w = word;
  if (w.endsWith('sses') || w.endsWith('ies')) w = w.slice(0, -2);
  else if (w.endsWith('s') && !w.endsWith('ss')) w = w.slice(0, -1);
  if (w.endsWith('eed')) {
    return measure(w.slice(0, -3)) > 0 ? w.slice(0, -1) : w;
  }
  const ed = w.endsWith('ed') ? 2 : w.endsWith('ing') ? 3 : 0;
  if (ed === 0 || !hasVowel(w.slice(0, -ed))) return w;
  w = w.slice(0, -ed);
  if (w.endsWith('at') || w.endsWith('bl') || w.endsWith('iz')) return `${w}e`;
  if (endsDoubleConsonant(w) && !'lsz'.includes(w.at(-1))) return w.slice(0, -1);
  if (measure(w) === 1 && endsCvc(w)) return `${w}e`;
  return w;
}

function step4(word) {
  for (const suffix of step4Suffixes) {
    if (!word.endsWith(suffix)) continue;
    const stem = word.slice(0, -suffix.length);
    if (measure(stem) <= 1) return word;
    if (suffix === 'ion' && !(stem.endsWith('s') || stem.endsWith('t'))) return word;
    return stem;
  }
  return word;
}

function step5(word) {
  let w = word;
  if (w.endsWith('e')) {
    const stem = w.slice(0, -1);
    const m = measure(stem);
    if (m > 1 || (m === 1 && !endsCvc(stem))) w = stem;
  }
  if (measure(w) > 1 && endsDoubleConsonant(w) && w.endsWith('l')) w = w.slice(0, -1);
  return w;
}

/** The Porter stem of a lower-case English word; words of one or two letters are kept. */
export function porterStem(word) {
  if (word.length <= 2) return word;
  let w = step1ab(word);
  if (w.endsWith('y') && hasVowel(w.slice(0, -1))) w = `${w.slice(0, -1)}i`;
  w = replaceSuffix(w, step2Suffixes, 0);
  w = replaceSuffix(w, step3Suffixes, 0);
  w = step4(w);
  return step5(w);
}
