// Issue 43, multilingual-e5-small: the letter test in centred space. For each question of the
// bench's sets and the questions nothing answers, its nearest hundred passages by the centred
// search, each conversation's best centred similarity to the question, and the best centred
// similarity any shuffle of its letters (centred on the question's language) has to them.
//   node bench/recall-quality/centred-letters.mjs --data-dir DIR > out.jsonl
import { UNANSWERABLE, VIOLIN, labelledQuestions } from './question-sets.mjs';

const args = process.argv.slice(2);
const dataDir = args.includes('--data-dir') ? args[args.indexOf('--data-dir') + 1] : undefined;
if (dataDir === undefined) throw new Error('--data-dir DIR');
const queries = labelledQuestions();
const extra = (args[args.indexOf('--unanswerable') + 1] ?? '').split('|').filter(Boolean);
for (const query of [...UNANSWERABLE, VIOLIN, ...extra])
  queries.push({ set: 'unanswerable', query, target: null });
const only = args.includes('--unanswerable-only');

const { Folder } = await import('../../dist/folder/folder.js');
const { openQueryEmbedder } = await import('../../dist/recall/embed-store.js');
const { shuffledWords } = await import('../../dist/recall/letter-noise.js');
const folder = new Folder(dataDir);
const store = await folder.openStore({ readonly: true });
const embedder = await openQueryEmbedder(store, folder);
if (!embedder) throw new Error(`${dataDir} has no vectors: embed it first`);
for (const { set, query, target } of queries) {
  if (only && set !== 'unanswerable') continue;
  const [vector, ...shuffles] = await embedder.embed([query, ...shuffledWords(query)]);
  if (!vector) throw new Error(`no vector for ${query}`);
  const centre = await embedder.centre(query, vector);
  if (!centre) throw new Error('the model does not centre by language');
  const found = await store.vectors.search({
    vector: centre.centred.vector,
    limit: 100,
    withVectors: true,
  });
  const described = await store.vectors.describe(found.map((h) => ({ ...h, vector: undefined })));
  const centredShuffles = await Promise.all(
    shuffles.map(async (s) => {
      const shuffled = await embedder.centre(query, s);
      if (!shuffled) throw new Error('the model does not centre by language');
      return shuffled.centred;
    }),
  );
  let reach = -Infinity;
  const conversations = new Map();
  found.forEach((hit, i) => {
    const s = centre.centred.score(hit);
    for (const c of centredShuffles) reach = Math.max(reach, c.score(hit));
    const id = described[i]?.platformConversationId;
    if (id !== undefined && (conversations.get(id) ?? -Infinity) < s) conversations.set(id, s);
  });
  const ranked = [...conversations].sort((a, b) => b[1] - a[1]).slice(0, 20);
  process.stdout.write(
    `${JSON.stringify({ set, query, target, noise: centre.test.noise, reach, conversations: ranked })}\n`,
  );
}
await embedder.close();
await store.close();
