// The keyword bench's queries, shared by bench/graph.mjs (their latency per kind, issue 46) and
// bench/keyword-answers.mjs (their answers, to compare two builds): 20 distinct queries of each
// kind of search.

/** The topic words of the generated histories (bench/run.mjs's generator). */
export const WORDS = [
  'postgres',
  'replication',
  'borrow',
  'lifetimes',
  'kubernetes',
  'ingress',
  'sourdough',
  'levain',
  'marathon',
  'taper',
  'generics',
  'compost',
  'budget',
  'mortgage',
  'the',
  'because',
  'vacuum',
  'helm',
  'crumb',
  'rebalancing',
];
// Words of the generator's filler (src/sample/prose.ts), each in a large part of all messages
// ("the" and "because" are among the single words).
const COMMON = [
  'and',
  'that',
  'with',
  'use',
  'time',
  'first',
  'make',
  'like',
  'need',
  'good',
  'way',
  'well',
  'may',
  'much',
  'one',
  'also',
  'which',
  'each',
  'when',
  'should',
];
/** @type {Record<string, (a: string, b: string, i: number) => import('../dist/api/query.js').SearchQuery>} */
const KINDS = {
  word: (a) => ({ text: a }),
  'two words': (a, b) => ({ text: `${a} ${b}` }),
  'phrase, role': (a) => ({ text: `"${a} and"`, role: 'user' }),
  prefix: (a) => ({ text: `${a.slice(0, 3)}*` }),
  'prefix, source': (a) => ({ text: `${a.slice(0, 4)}*`, source: 'chatgpt' }),
  'word, since': (a) => ({ text: a, since: '2023-12-01' }),
  'common word': (_a, _b, i) => ({ text: COMMON[i] ?? 'the' }),
  'OR / NOT': (a, b, i) => ({ text: i % 2 === 0 ? `${a} OR ${b}` : `${a} -${b}` }),
};

/** The kinds' names, in the bench's order. */
export const KIND_NAMES = Object.keys(KINDS);

/** The kinds that filter or exclude (paged further by keyword-answers.mjs). */
export const FILTERED_KINDS = new Set([
  'phrase, role',
  'prefix, source',
  'word, since',
  'OR / NOT',
]);

/** Every query, with its kind. @returns {{ kind: string, query: import('../dist/api/query.js').SearchQuery }[]} */
export function keywordQueries() {
  const queries = [];
  for (const [kind, make] of Object.entries(KINDS))
    for (let i = 0; i < WORDS.length; i++) {
      const a = WORDS[i] ?? '';
      // The second word: another topic's, never the first one.
      const b = WORDS[(i + 7) % WORDS.length] ?? '';
      queries.push({ kind, query: make(a, b, i) });
    }
  return queries;
}
