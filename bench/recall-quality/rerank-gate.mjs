// Issue 43: would a relevance score refuse what nothing answers and keep the labelled answers?
// Reads the hits rerank-candidates.mjs wrote, scored by a reranker run apart (each hit given a
// numeric field, `--field`, e.g. score_passage from score-nanoranker.py), one file per model
// (`--scored MODEL=FILE`, repeated). A gate keeps a hit found by meaning alone when its score is
// at least T (hits found by words always stay, as today). For each model: the labelled targets
// among the first three conversations found by meaning alone (a gate could lose them), the
// questions nothing answers that are answered by meaning today (the 16, the held-out 37), and
// the labelled targets among the first three when conversations are ordered by their best hit's
// score. Thresholds are chosen on the 16 alone (the held-out 37 is the check): the lowest T that
// refuses every (model, question) of the 16 answered today, then all but one, all but two.
//   node bench/recall-quality/rerank-gate.mjs --field score_passage \
//     --scored all-minilm-l6-v2=A.jsonl --scored multilingual-e5-small=B.jsonl …
import { readFileSync } from 'node:fs';

const args = process.argv.slice(2);
const fieldAt = args.indexOf('--field');
const field = fieldAt < 0 ? 'score' : args[fieldAt + 1];
if (field === undefined) throw new Error('--field NAME');
/** @type {[string, string][]} */
const files = args.flatMap((a, i) => {
  const value = args[i + 1];
  if (a !== '--scored' || value === undefined) return [];
  const eq = value.indexOf('=');
  return eq < 0
    ? []
    : [/** @type {[string, string]} */ ([value.slice(0, eq), value.slice(eq + 1)])];
});
if (files.length === 0) throw new Error('--scored MODEL=FILE (repeated)');

/** @typedef {{conversation: string, words: boolean, [k: string]: unknown}} Hit */
/** @typedef {{set: string, query: string, target?: string, hits: Hit[]}} Row */
/** @param {Hit} h */
const score = (h) => {
  const s = h[field];
  if (typeof s !== 'number') throw new Error(`a hit has no numeric ${field}`);
  return s;
};
/** @param {Row} r */
const conversations = (r) => [...new Set(r.hits.map((h) => h.conversation))];
/** @param {Row} r */
const bestByMeaning = (r) => {
  const s = r.hits.filter((h) => !h.words).map(score);
  return s.length > 0 ? Math.max(...s) : undefined;
};

const models = files.map(([model, file]) => {
  /** @type {Row[]} */
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
  /** @param {string} set */
  const answered = (set) =>
    rows.flatMap((r) => {
      const best = r.set === set ? bestByMeaning(r) : undefined;
      return best === undefined ? [] : [{ query: r.query, best }];
    });
  const labelled = rows.filter((r) => r.target !== undefined);
  /** @type {{query: string, best: number}[]} */
  const targets = [];
  let reordered = 0;
  let today = 0;
  for (const r of labelled) {
    const first = conversations(r).slice(0, 3);
    if (r.target !== undefined && first.includes(r.target)) today++;
    /** @type {Map<string, number>} */
    const best = new Map();
    for (const h of r.hits)
      best.set(h.conversation, Math.max(best.get(h.conversation) ?? -Infinity, score(h)));
    const byScore = [...best].sort((a, b) => b[1] - a[1]).map(([c]) => c);
    if (r.target !== undefined && byScore.slice(0, 3).includes(r.target)) reordered++;
    const own = r.hits.filter((h) => h.conversation === r.target);
    if (r.target !== undefined && first.includes(r.target) && own.every((h) => !h.words))
      targets.push({ query: r.query, best: Math.max(...own.map(score)) });
  }
  return {
    model,
    labelled: labelled.length,
    today,
    reordered,
    targets,
    u16: answered('the 16'),
    h37: answered('held-out 37'),
  };
});

const f3 = (/** @type {number} */ x) => x.toFixed(3);
for (const m of models) {
  const ts = m.targets.map((t) => t.best).sort((a, b) => a - b);
  const q = (/** @type {number} */ p) => f3(ts[Math.floor(p * ts.length)] ?? NaN);
  process.stdout.write(
    `${m.model}: labelled ${m.labelled}, target in the first three ${m.today} (ordered by the score ${m.reordered}); ` +
      `by meaning alone ${m.targets.length} (scores 10/25/50%: ${q(0.1)} ${q(0.25)} ${q(0.5)}); ` +
      `the 16 answered ${m.u16.length}: ${m.u16.map((u) => `"${u.query}" ${f3(u.best)}`).join(', ')}; held-out answered ${m.h37.length}\n`,
  );
}
/** @param {number} t */
const line = (t) =>
  models
    .map((m) => {
      const lost = m.targets.filter((x) => x.best < t).length;
      const a16 = m.u16.filter((u) => u.best >= t).length;
      const a37 = m.h37.filter((u) => u.best >= t).length;
      return `${m.model}: lost ${lost} of ${m.targets.length}, the 16 ${a16} of ${m.u16.length}, held-out ${a37} of ${m.h37.length}`;
    })
    .join(' | ');
const pooled = models.flatMap((m) => m.u16.map((u) => u.best)).sort((a, b) => b - a);
for (const [k, label] of /** @type {const} */ ([
  [0, 'all'],
  [1, 'all but one'],
  [2, 'all but two'],
])) {
  const at = pooled[k];
  if (at !== undefined)
    process.stdout.write(
      `T ${f3(at + 1e-6)} (refuses ${label} of the ${pooled.length} of the 16 answered): ${line(at + 1e-6)}\n`,
    );
}
for (const t of [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8])
  process.stdout.write(`T ${t.toFixed(1)}: ${line(t)}\n`);
