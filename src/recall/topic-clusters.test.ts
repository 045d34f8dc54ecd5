import { describe, expect, it } from 'vitest';
import { clusterConversations } from './topic-map.js';
import { distinctiveWords, kMeans } from './topic-clusters.js';

// Three groups of hand-made vectors, each near one axis, with titles that name them.
const groups = [
  {
    axis: 0,
    titles: ['Sourdough starter help', 'Sourdough crumb too dense', 'Baking sourdough rye'],
  },
  {
    axis: 1,
    titles: ['Mortgage overpayment maths', 'Fixed or tracker mortgage', 'Mortgage broker fees'],
  },
  {
    axis: 2,
    titles: ['TypeScript generic error', 'TypeScript strict mode', 'Narrowing in TypeScript'],
  },
];
const vectors = groups.flatMap((g, gi) =>
  g.titles.map((title, i) => {
    const vector = new Float32Array(4).fill(0.05 * (i + 1));
    vector[g.axis] = 1;
    return { owner: `c${String(gi)}-${String(i)}`, title, source: 'chatgpt', vector };
  }),
);

describe('the topic map', () => {
  it('puts vectors near one axis in one cluster', () => {
    const { assignment } = kMeans(
      vectors.map((v) => v.vector),
      { k: 3 },
    );
    expect(new Set(assignment.slice(0, 3)).size).toBe(1);
    expect(new Set(assignment.slice(3, 6)).size).toBe(1);
    expect(new Set(assignment.slice(6, 9)).size).toBe(1);
    expect(new Set(assignment).size).toBe(3);
  });

  it('names each cluster by the words its titles share and the others lack', () => {
    const clusters = clusterConversations(vectors, { k: 3 });
    expect(clusters.map((c) => c.size)).toEqual([3, 3, 3]);
    const names = clusters.map((c) => c.words[0]).sort();
    expect(names).toEqual(['mortgage', 'sourdough', 'typescript']);
    for (const c of clusters) {
      const prefix = c.conversations[0]?.id.slice(0, 2);
      expect(c.conversations.every((m) => m.id.startsWith(prefix ?? '?'))).toBe(true);
      expect(c.nearest).not.toBeNull();
    }
  });

  it('ranks a word every cluster has below one only this cluster has', () => {
    const names = distinctiveWords(
      ['help with sourdough', 'help with sourdough', 'help with tax', 'help with tax'].map(
        (title) => ({ title }),
      ),
      [0, 0, 1, 1],
      2,
    );
    expect(names[0]?.[0]).toBe('sourdough');
    expect(names[1]?.[0]).toBe('tax');
  });

  it('names a topic by its subject, not by words of chat in any language', () => {
    const names = distinctiveWords(
      [
        { title: 'Lettre pour résiliation du bail', text: 'avec votre propriétaire, il faut' },
        { title: 'Résiliation du bail: le préavis', text: 'pour votre bail il faut écrire' },
        { title: 'Add a test that works', text: 'instead you need to add this' },
        { title: 'Add logging that works', text: 'instead add a logger' },
      ],
      [0, 0, 1, 1],
      2,
    );
    expect(names[0]).toEqual(expect.arrayContaining(['bail', 'résiliation']));
    for (const word of ['pour', 'avec', 'votre', 'faut', 'add', 'instead', 'works'])
      expect(names.flat()).not.toContain(word);
  });

  it('weighs each conversation once, however long: c-TF-IDF over presence, not word counts', () => {
    const long = `${'server '.repeat(200)} tent`;
    const names = distinctiveWords(
      [
        { title: 'Camping trip in Wales', text: long },
        { title: 'Camping gear list', text: 'a tent and a stove' },
        { title: 'Camping with a dog', text: 'the tent fits a dog' },
        { title: 'Nginx server setup', text: 'server blocks' },
        { title: 'Server backups', text: 'the server runs nightly' },
        { title: 'Postgres on a server', text: 'server tuning' },
      ],
      [0, 0, 0, 1, 1, 1],
      2,
    );
    expect(names[0]?.slice(0, 2)).toEqual(['camping', 'tent']);
    expect(names[0]).not.toContain('server');
    expect(names[1]?.[0]).toBe('server');
  });

  it('lets the conversations nearest the centre speak for the cluster', () => {
    const docs = [
      { title: 'Sourdough starter', weight: 1 },
      { title: 'Sourdough hydration', weight: 0.8 },
      { title: 'Pasta dough by hand', weight: 0.3 },
      { title: 'Pasta for four', weight: 0.25 },
      { title: 'Tax return deadline' },
      { title: 'Tax on savings' },
    ];
    const names = distinctiveWords(docs, [0, 0, 0, 0, 1, 1], 2);
    expect(names[0]?.[0]).toBe('sourdough');
  });

  it("names a topic's most central conversation", () => {
    const clusters = clusterConversations(vectors, { k: 3 });
    for (const c of clusters)
      expect(c.central).toEqual({ id: c.conversations[0]?.id, title: c.conversations[0]?.title });
  });

  it('gives no clusters for no vectors', () => {
    expect(clusterConversations([])).toEqual([]);
  });
});
