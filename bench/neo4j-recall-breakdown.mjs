// Where a semantic search's time goes on Neo4j, and two builds of chatgraph compared on one
// server (`node bench/recall.mjs --only-neo4j --breakdown [--compare <dist>] [--rounds 3]`).
// 1. Each of the search's steps, timed alone through the store's API (the vector model and its
//    count, the memories' model, the nearest candidates, the hits described) and each Cypher
//    statement of the store as it stood before (the same text, copied here) on one session,
//    with Neo4j's own time for it (the driver's result summary): what is left is the round
//    trip, the transaction and the client's work.
// 2. Semantic and hybrid recall, alternately with each build, over the same 100 queries, so
//    both are measured back to back under the same load: right after the vectors are written,
//    and again once no merge of the index's Lucene segments has been under way for 30 s.
import { readdirSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import neo4j from 'neo4j-driver';

const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[
    Math.min(values.length - 1, Math.floor((p / 100) * values.length))
  ];
const ms = (values) =>
  `p50 ${percentile(values, 50).toFixed(1)} / p95 ${percentile(values, 95).toFixed(1)} ms`;
const since = (t) => Number(process.hrtime.bigint() - t) / 1e6;

/** The statements a semantic search ran before this bench (neo4j-vectors.ts, neo4j-memories.ts). */
const STATEMENTS = {
  'RETURN 1 (the round trip alone)': () => ({ text: 'RETURN 1 AS one', params: {} }),
  'vector model and count': () => ({
    text: `MATCH (s:ChatgraphMeta {key: 'store'}) WHERE s.vector_model IS NOT NULL
       RETURN s.vector_model AS id, s.vector_dimensions AS dimensions,
              COUNT { MATCH (v:ChatgraphVector) } AS count`,
    params: {},
  }),
  "memories' vector model": () => ({
    text: `MATCH (v:ChatgraphMemoryVector) RETURN v.model AS id, v.dimensions AS dimensions, count(*) AS count ORDER BY count DESC LIMIT 1`,
    params: {},
  }),
  'nearest 10 of 100 candidates': (vector) => ({
    text: `CALL db.index.vector.queryNodes('chatgraph_vectors', $k, $vector) YIELD node, score
    WITH node, score ORDER BY score DESC
    WITH node.node_id AS nodeId, max(score) AS score, collect(node)[0] AS node
    RETURN nodeId, node.kind AS kind, node.message_id AS messageId, node._owner AS owner,
           score, node.start AS start, node.end AS end ORDER BY score DESC LIMIT $wanted`,
    params: { vector: Array.from(vector), k: neo4j.int(100), wanted: neo4j.int(10) },
  }),
  'the index query alone, 100 candidates': (vector) => ({
    text: `CALL db.index.vector.queryNodes('chatgraph_vectors', 100, $vector) YIELD node, score
    RETURN count(*) AS n`,
    params: { vector: Array.from(vector) },
  }),
};

/** Candidates asked of the index, each timed in Neo4j with its recall@10 against `exact`. */
async function timeCandidates(session, queryVectors, exact, say) {
  for (const k of [25, 50, 75, 100, 150]) {
    const server = [];
    let found = 0;
    for (const [i, vector] of queryVectors.entries()) {
      const result = await session.run(
        `CALL db.index.vector.queryNodes('chatgraph_vectors', $k, $vector) YIELD node, score
         WITH node.node_id AS id, max(score) AS s RETURN id ORDER BY s DESC LIMIT 10`,
        { vector: Array.from(vector), k: neo4j.int(k) },
      );
      const summary = result.summary;
      server.push(summary.resultAvailableAfter.toNumber() + summary.resultConsumedAfter.toNumber());
      const got = new Set(result.records.map((r) => r.get('id')));
      found += exact[i].filter((id) => got.has(id)).length;
    }
    say(
      `  ${k} candidates: in Neo4j ${ms(server)}, recall@10 ${(found / (queryVectors.length * 10)).toFixed(3)}`,
    );
  }
}

/** Each statement on one open session: the client's time, and Neo4j's (planning + running). */
async function timeStatements(target, queryVectors, exact, say) {
  const driver = neo4j.driver(target.url, neo4j.auth.basic(target.user, target.password));
  const session = driver.session({ defaultAccessMode: neo4j.session.READ });
  try {
    for (const [label, statement] of Object.entries(STATEMENTS)) {
      const client = [];
      const server = [];
      for (const vector of queryVectors) {
        const { text, params } = statement(vector);
        const t = process.hrtime.bigint();
        const result = await session.run(text, params);
        client.push(since(t));
        const summary = result.summary;
        server.push(
          summary.resultAvailableAfter.toNumber() + summary.resultConsumedAfter.toNumber(),
        );
      }
      say(`  statement "${label}": at the client ${ms(client)}; in Neo4j ${ms(server)}`);
    }
    await timeCandidates(session, queryVectors, exact, say);
    // A new session and a managed read transaction, as the store opens for every read.
    const managed = [];
    for (let i = 0; i < queryVectors.length; i++) {
      const t = process.hrtime.bigint();
      const own = driver.session({ defaultAccessMode: neo4j.session.READ });
      await own.executeRead((tx) => tx.run('RETURN 1 AS one'));
      await own.close();
      managed.push(since(t));
    }
    say(`  RETURN 1 in a new session's managed read transaction: ${ms(managed)}`);
  } finally {
    await session.close();
    await driver.close();
  }
}

/** The store's steps of a semantic search of ten, each timed alone. */
async function timeSteps(build, queryVectors, say) {
  const { store } = build;
  /** @type {Record<'model' | 'memories' | 'search' | 'describe' | 'whole', number[]>} */
  const steps = { model: [], memories: [], search: [], describe: [], whole: [] };
  for (let i = 0; i < queryVectors.length; i++) {
    const vector = queryVectors[i];
    let t = process.hrtime.bigint();
    await store.vectors.model();
    steps.model.push(since(t));
    t = process.hrtime.bigint();
    await store.memories.vectorModel();
    steps.memories.push(since(t));
    t = process.hrtime.bigint();
    const hits = await store.vectors.search({ vector, limit: 10, offset: 0 });
    steps.search.push(since(t));
    t = process.hrtime.bigint();
    await store.vectors.describe(hits);
    steps.describe.push(since(t));
    t = process.hrtime.bigint();
    await build.recall(store, { text: `q${i}`, mode: 'semantic', limit: 10 }, () =>
      Promise.resolve(vector),
    );
    steps.whole.push(since(t));
  }
  say(
    `  ${build.label} steps: vectors.model() ${ms(steps.model)}; memories.vectorModel() ${ms(steps.memories)}; vectors.search() ${ms(steps.search)}; vectors.describe() ${ms(steps.describe)}; the whole semantic recall ${ms(steps.whole)}`,
  );
}

/** Semantic and hybrid recall of the queries with one build, and recall@10 against `exact`. */
async function timeRecall(build, queries, queryVectors, exact) {
  const semantic = [];
  const hybrid = [];
  let found = 0;
  for (let i = 0; i < queries.length; i++) {
    const vector = queryVectors[i];
    const embedQuery = () => Promise.resolve(vector);
    let t = process.hrtime.bigint();
    await build.recall(build.store, { text: queries[i], mode: 'semantic', limit: 10 }, embedQuery);
    semantic.push(since(t));
    t = process.hrtime.bigint();
    await build.recall(build.store, { text: queries[i], mode: 'hybrid', limit: 10 }, embedQuery);
    hybrid.push(since(t));
    const got = new Set(
      (await build.store.vectors.search({ vector, limit: 10 })).map((h) => h.nodeId),
    );
    found += exact[i].filter((id) => got.has(id)).length;
  }
  return { semantic, hybrid, recall: found / (queries.length * 10) };
}

async function openBuild(dist, label, target) {
  const { Neo4jStore } = await import(pathToFileURL(join(dist, 'neo4j.js')).href);
  const { recall } = await import(pathToFileURL(join(dist, 'recall', 'recall-search.js')).href);
  return { label, store: await Neo4jStore.open(target), recall };
}

/** The vector index's Lucene files (segments, and merges under way as `.tmp` files). */
function indexFiles(home) {
  const root = join(home, 'data', 'databases', 'neo4j', 'schema', 'index', 'vector-2.0');
  const files = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }))
      if (entry.isDirectory()) walk(join(dir, entry.name));
      else files.push(entry.name);
  };
  walk(root);
  return {
    segments: new Set(files.filter((f) => f.endsWith('.si'))).size,
    merging: files.some((f) => f.endsWith('.tmp')),
  };
}

/**
 * Waits until Lucene has merged the segments the writes left (no merge under way and the same
 * segments for 30 s): a server that has been up a while searches those, one HNSW graph each.
 */
async function settle(home, say) {
  const t = process.hrtime.bigint();
  let last = indexFiles(home);
  say(`vector index: ${last.segments} segments${last.merging ? ', merging' : ''}`);
  for (let still = 0; still < 6;) {
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    const now = indexFiles(home);
    still = !now.merging && now.segments === last.segments ? still + 1 : 0;
    last = now;
  }
  say(`vector index settled in ${(since(t) / 1000).toFixed(0)} s: ${last.segments} segments`);
}

async function recallRounds(builds, { queries, queryVectors, exact, rounds, say, load }, when) {
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? builds : [...builds].reverse();
    for (const build of order) {
      const before = load();
      const r = await timeRecall(build, queries, queryVectors, exact);
      say(
        `${when}, round ${round + 1}, ${build.label}: recall@10 ${r.recall.toFixed(3)}; semantic ${ms(r.semantic)}; hybrid ${ms(r.hybrid)} (${before}; after: ${load()})`,
      );
    }
  }
}

/** Whether every build gives the same described hits, in the same order, for every query. */
async function sameHits(builds, queryVectors, say) {
  if (builds.length < 2) return;
  let differ = 0;
  for (const [i, vector] of queryVectors.entries()) {
    const [first, ...others] = await Promise.all(
      builds.map(async ({ store }) => {
        const hits = await store.vectors.search({ vector, limit: 10 });
        return JSON.stringify([hits, await store.vectors.describe(hits)]);
      }),
    );
    if (others.some((other) => other !== first)) {
      differ++;
      if (differ === 1) say(`  query ${i}: the builds differ:\n    ${first}\n    ${others[0]}`);
    }
  }
  say(
    `the builds' hits and descriptions: ${differ === 0 ? 'identical' : `${differ} queries differ`}`,
  );
}

/**
 * The breakdown, then `rounds` rounds of recall with each build in turn (the order swapped
 * each round); `dists` are dist/ folders, the first this checkout's.
 */
export async function breakdownNeo4jSearch(options) {
  const { target, home, dists, queryVectors, say, load } = options;
  const builds = [];
  for (const [i, dist] of dists.entries())
    builds.push(await openBuild(dist, i === 0 ? 'this build' : dist, target));
  try {
    // Right after the writes, as the bench has always measured (Lucene may still be merging).
    say(`vector index: ${indexFiles(home).segments} segments`);
    await sameHits(builds, queryVectors, say);
    await recallRounds(builds, options, 'right after the writes');
    await settle(home, say);
    say(`breakdown (${load()}):`);
    await timeStatements(target, queryVectors, options.exact, say);
    for (const build of builds) await timeSteps(build, queryVectors, say);
    await recallRounds(builds, options, 'index settled');
  } finally {
    for (const build of builds) await build.store.close();
  }
}
