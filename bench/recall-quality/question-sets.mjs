// The recall bench's question sets, shared by its scripts: the labelled sets (their file in this
// folder) and the questions nothing in the sets answers.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));

/** Each labelled set's name and file. @type {[string, string][]} */
export const LABELLED_SETS = [
  ['English', 'queries.json'],
  ['non-English', 'queries-multilingual.json'],
  ['cross-language', 'queries-crosslingual.json'],
  ['held-out', 'queries-heldout.json'],
  ['held-out 2', 'queries-heldout-2.json'],
  ['held-out 3', 'queries-heldout-3.json'],
];

/** Every labelled question: `{set, query, target}`. */
export function labelledQuestions() {
  return LABELLED_SETS.flatMap(([set, file]) =>
    JSON.parse(readFileSync(join(here, file), 'utf8')).map((q) => ({
      set,
      query: q.query,
      target: q.target,
    })),
  );
}

// Questions nothing in the sets answers, in the sets' languages and in none (unknown words, a
// stopword, keyboard runs): what a model makes of them sets the margin of its meaning cutoff.
export const UNANSWERABLE = [
  'asdfgh qwerty',
  'no such wordxyz',
  'lorem ipsum dolor sit amet',
  'jkl; jkl; fdsa',
  'the mating habits of octopuses',
  'medieval siege weapons trebuchet',
  'precio del oro en 1980',
  'zorblaxian quuxification',
  'the',
  'offside rules in ice hockey',
  'Quantenchromodynamik und Gluonen',
  'horaires des marées à Saint-Malo',
  'reglas del críquet',
  'a história da dinastia Ming',
  'qwertzuiop',
];

/** The question the bundled samples never answer, asked of the bench's folder too. */
export const VIOLIN = 'how to tune a violin bridge';
