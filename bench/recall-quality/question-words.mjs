// Issue 43: does the history know a question's words? For a data folder the recall bench
// embedded (`--data-dir`), each question of every set (the labelled ones, the 16 nothing answers,
// the held-out 37): its content words (not in the stop lists of the languages the store stems,
// three letters or more), which of them no message or attachment holds (message_fts, porter; or
// message_stems, the word's stem in any language the store stems: what the "did you mean" hint
// reads), and what a hybrid search answers. Then what a rule "a question in English (or in no
// language eld is sure of) whose content words are at least T unknown gets nothing by meaning"
// would cost (labelled top-3 hits found by meaning only, lost) and gain (questions nothing
// answers that are answered by meaning, refused).
//   node bench/recall-quality/question-words.mjs --data-dir DIR [--all-languages] [--list]
import Database from 'better-sqlite3-multiple-ciphers';
import { join } from 'node:path';
import { deu, eng, fra, ita, nld, por, spa } from 'stopword';
import { UNANSWERABLE, UNANSWERABLE_HELDOUT, VIOLIN, labelledQuestions } from './question-sets.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--data-dir');
const dataDir = at < 0 ? undefined : args[at + 1];
if (dataDir === undefined) throw new Error('--data-dir DIR');
const allLanguages = args.includes('--all-languages');
const { queryStems } = await import('../../dist/search/stemming.js');
const { STEMS_LANGUAGES } = await import('../../dist/stores/batch-language.js');
const { questionLanguage } = await import('../../dist/recall/query-language.js');
const { DataFolder } = await import('../../dist/index.js');

const STOP = new Set([eng, fra, deu, spa, por, ita, nld].flat().map((w) => w.toLowerCase()));
const ELISION = /^(?:l|d|c|j|m|n|s|t|qu|dell|all|nell|sull|un)['’](?=\p{L})/u;
/** @param {string} text */
const contentWords = (text) =>
  (text.toLowerCase().match(/\p{L}[\p{L}\p{N}'’-]*/gu) ?? [])
    .flatMap((w) => w.replace(ELISION, '').split(/['’-]/u))
    .filter((w) => w.length >= 3 && !STOP.has(w));

const db = new Database(join(dataDir, 'chatgraph.sqlite'), { readonly: true });
const held = (table) => db.prepare(`SELECT 1 FROM ${table} WHERE ${table} MATCH ? LIMIT 1`).pluck();
const messages = held('message_fts');
const attachments = held('attachment_fts');
const stems = held('message_stems');
/** @param {string} word */
const known = (word) =>
  messages.get(`"${word}"`) !== undefined ||
  attachments.get(`"${word}"`) !== undefined ||
  stems.get(
    queryStems(word, STEMS_LANGUAGES)
      .map((s) => `"${s}"`)
      .join(' OR '),
  ) !== undefined;

const questions = [
  ...labelledQuestions(),
  ...[...UNANSWERABLE, VIOLIN].map((query) => ({ set: 'the 16', query, target: undefined })),
  ...UNANSWERABLE_HELDOUT.map((query) => ({ set: 'held-out 37', query, target: undefined })),
];
const folder = await DataFolder.open(dataDir, { readonly: true });
const recaller = await folder.recaller();
const rows = [];
for (const { set, query, target } of questions) {
  const words = contentWords(query);
  const unknown = words.filter((w) => !known(w));
  const { hits } = await recaller.search({ text: query, mode: 'hybrid', limit: 20 });
  const first = [...new Set(hits.map((h) => h.platformConversationId))].slice(0, 3);
  rows.push({
    set,
    query,
    unknown,
    share: words.length > 0 ? unknown.length / words.length : 0,
    language: await questionLanguage(query),
    // Labelled: its target among the first three, found by meaning only (what a rule could lose).
    hit:
      target !== undefined &&
      first.includes(target) &&
      hits.some((h) => h.platformConversationId === target && h.why?.keyword === undefined),
    answered: target === undefined && hits.some((h) => h.why?.keyword === undefined),
  });
}
await recaller.close();
await folder.close();
db.close();

for (const set of [...new Set(rows.map((r) => r.set))]) {
  const of = rows.filter((r) => r.set === set);
  const all = of.filter((r) => r.share === 1 && r.unknown.length > 0).length;
  const some = of.filter((r) => r.unknown.length > 0).length;
  const mean = of.reduce((sum, r) => sum + r.share, 0) / of.length;
  process.stdout.write(
    `${set}: ${of.length} questions, ${some} with an unknown content word, ${all} with all unknown, mean share unknown ${mean.toFixed(2)}\n`,
  );
}
const judged = (r) => allLanguages || r.language === 'en' || r.language === undefined;
for (const threshold of [0.5, 0.75, 1]) {
  const refused = (r) => judged(r) && r.unknown.length > 0 && r.share >= threshold;
  const lost = rows.filter((r) => r.hit && refused(r));
  const count = (set) => {
    const answered = rows.filter((r) => r.set === set && r.answered);
    return `${set} ${answered.filter((r) => !refused(r)).length} of ${answered.length} still answered`;
  };
  process.stdout.write(
    `share ≥ ${threshold}${allLanguages ? ' (any language)' : ''}: labelled hits lost ${lost.length} of ${rows.filter((r) => r.hit).length}; ${count('the 16')}; ${count('held-out 37')}\n`,
  );
  if (args.includes('--list'))
    for (const r of lost) process.stdout.write(`  lost (${r.set}): "${r.query}" ${r.unknown}\n`);
}
