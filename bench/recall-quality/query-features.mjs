// Issue 43: what the meaning cutoff could judge a query by, one JSON line a query, for a data
// folder the recall bench embedded (`--data-dir`). For each question of the bench's sets (and the
// questions nothing answers): the conversations of the uncut hybrid ranking (the cutoff's test
// turned off), the model's noise level, what the shuffles of the query's letters reach among the
// nearest hundred passages, each conversation's best plain similarity, and the query's words.
// The questions nothing answers held out (UNANSWERABLE_HELDOUT) come last, set "unanswerable held-out".
//   node bench/recall-quality/query-features.mjs --data-dir DIR [--unanswerable 'q|q'] [--unanswerable-only] > out.jsonl
import { UNANSWERABLE, UNANSWERABLE_HELDOUT, VIOLIN, labelledQuestions } from './question-sets.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) =>
  args.includes(name) ? (args[args.indexOf(name) + 1] ?? fallback) : fallback;
const dataDir = option('--data-dir', undefined);
if (dataDir === undefined) throw new Error('--data-dir DIR');
const extra = option('--unanswerable', '')
  .split('|')
  .filter((q) => q !== '');
const queries = args.includes('--unanswerable-only') ? [] : labelledQuestions();
for (const query of [...UNANSWERABLE, VIOLIN, ...extra])
  queries.push({ set: 'unanswerable', query, target: null });
for (const query of UNANSWERABLE_HELDOUT)
  queries.push({ set: 'unanswerable held-out', query, target: null });

const { Folder } = await import('../../dist/folder/folder.js');
const { openQueryEmbedder } = await import('../../dist/recall/embed-store.js');
const { recall } = await import('../../dist/recall/recall-search.js');
const { NO_TEST } = await import('../../dist/search/meaning-cutoff.js');
const { letterReferenceTexts } = await import('../../dist/recall/letter-noise.js');
const { detectLanguage, preloadLanguageDetector } =
  await import('../../dist/search/language-detection.js');
await preloadLanguageDetector();
const folder = new Folder(dataDir);
const store = await folder.openStore({ readonly: true });
const embedder = await openQueryEmbedder(store, folder);
if (!embedder) throw new Error(`${dataDir} has no vectors: embed it first`);
const judge = await embedder.meaningJudge();
const dot = (a, b) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
};
const unit = (v) => {
  const n = Math.sqrt(dot(v, v)) || 1;
  return Float32Array.from(v, (x) => x / n);
};

for (const { set, query, target } of queries) {
  const vector = await embedder.embedQuery(query);
  const test = judge(vector);
  // Centred by language (multilingual-e5-small): its noise level in centred space.
  const centredTest = await embedder.centre(query, vector);
  // The ranking with no cutoff: every hit kept, centred by language when the model searches so.
  const open = (mode) =>
    recall(
      store,
      { text: query, mode, limit: 20 },
      () => Promise.resolve(vector),
      () => Promise.resolve(NO_TEST),
      async (text, v) => {
        const c = await embedder.centre(text, v);
        return c && { ...c, test: NO_TEST, plainMargin: -Infinity };
      },
    );
  const first = (hits) => {
    const ids = [];
    for (const h of hits)
      if (!ids.includes(h.platformConversationId)) ids.push(h.platformConversationId);
    return ids.slice(0, 3);
  };
  const hybrid = await open('hybrid');
  const semantic = await open('semantic');
  // The nearest hundred passages by plain similarity, with their vectors.
  const found = await store.vectors.search({ vector, limit: 100, withVectors: true });
  const described = await store.vectors.describe(found.map((h) => ({ ...h, vector: undefined })));
  const q = unit(vector);
  const refs = (await embedder.embed(letterReferenceTexts(query))).map(unit);
  const shuffles = refs.slice(0, 4);
  let reach = -Infinity;
  let reachShuffles = -Infinity;
  const perConversation = new Map();
  const passages = [];
  found.forEach((hit, i) => {
    const v = unit(hit.vector);
    const s = dot(v, q);
    refs.forEach((r, j) => {
      const c = dot(v, r);
      reach = Math.max(reach, c);
      if (j < 4) reachShuffles = Math.max(reachShuffles, c);
    });
    const id = described[i]?.platformConversationId;
    passages.push(s);
    if (id !== undefined && !perConversation.has(id)) perConversation.set(id, s);
  });
  // Each shuffle's own similarity to the query (how far its letters alone carry it).
  const selfShuffle = Math.max(...shuffles.map((r) => dot(r, q)));
  // The query's own similarity to each reference text (shuffles, then the placeholder texts).
  const refSims = refs.map((r) => dot(r, q));
  const line = {
    set,
    query,
    target,
    words: query.trim().split(/\s+/u).length,
    language: detectLanguage(query) ?? null,
    noise: test.noise,
    centredNoise: centredTest?.test.noise ?? null,
    reach,
    reachShuffles,
    selfShuffle,
    refSims,
    conversations: [...perConversation].slice(0, 20),
    passages: passages.slice(0, 100),
    hybrid: first(hybrid.hits),
    hybridSims: hybrid.hits.map((h) => [
      h.platformConversationId,
      h.why?.semantic?.similarity ?? null,
      h.why?.keyword !== undefined,
    ]),
    semantic: first(semantic.hits),
    keywordMatches: hybrid.matches,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}
await embedder.close();
await store.close();
