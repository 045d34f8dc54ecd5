// The Neo4j vector settings measured side by side (`node bench/recall.mjs --only-neo4j --sweep`):
// each index setting (HNSW m, ef_construction, quantization) built over the same 100,000
// vectors, then each way of asking it (candidates fetched, exact re-scoring or the index's own
// score) timed over the benchmark's 100 queries, with recall@10 against an exact scan.
import neo4j from 'neo4j-driver';

const INDEX = 'chatgraph_vectors';
const LABEL = 'ChatgraphVector';

/** The index settings tried, the first Neo4j 5.26's defaults. */
const SETTINGS = [
  { m: 16, efConstruction: 100, quantization: true },
  { m: 16, efConstruction: 100, quantization: false },
  { m: 32, efConstruction: 200, quantization: false },
  { m: 32, efConstruction: 200, quantization: true },
];
/** Candidates fetched from the index for a page of ten. */
const CANDIDATES = [50, 100, 200, 400];

const percentile = (values, p) =>
  [...values].sort((a, b) => a - b)[
    Math.min(values.length - 1, Math.floor((p / 100) * values.length))
  ];

function cypher(rescore) {
  const score = rescore ? 'vector.similarity.cosine(node.embedding, $vector)' : 'score';
  return `CALL db.index.vector.queryNodes('${INDEX}', $k, $vector) YIELD node, score
    WITH node.node_id AS id, max(${score}) AS s
    RETURN id ORDER BY s DESC LIMIT 10`;
}

async function rebuild(session, setting, dimensions) {
  await session.run(`DROP INDEX ${INDEX} IF EXISTS`);
  const t = process.hrtime.bigint();
  await session.run(
    `CREATE VECTOR INDEX ${INDEX} FOR (v:${LABEL}) ON (v.embedding) OPTIONS {indexConfig: {
      \`vector.dimensions\`: ${dimensions}, \`vector.similarity_function\`: 'cosine',
      \`vector.hnsw.m\`: ${setting.m}, \`vector.hnsw.ef_construction\`: ${setting.efConstruction},
      \`vector.quantization.enabled\`: ${setting.quantization}}}`,
  );
  await session.run(`CALL db.awaitIndex('${INDEX}', 3600)`);
  return Number(process.hrtime.bigint() - t) / 1e9;
}

/**
 * Runs the sweep on a server whose store holds the vectors; `exact[i]` is query i's exact top
 * ten. Leaves the index as it found it (the last setting's is dropped and the first rebuilt).
 */
export async function sweepNeo4jVectors({ target, queryVectors, exact, dimensions, say }) {
  const driver = neo4j.driver(target.url, neo4j.auth.basic(target.user, target.password));
  const session = driver.session();
  try {
    for (const setting of SETTINGS) {
      const seconds = await rebuild(session, setting, dimensions);
      const [shown] = (
        await session.run(
          `SHOW VECTOR INDEXES YIELD name, options WHERE name = $name RETURN options`,
          { name: INDEX },
        )
      ).records;
      say(
        `index m ${setting.m}, ef_construction ${setting.efConstruction}, quantization ${setting.quantization}: built in ${seconds.toFixed(0)} s; ${JSON.stringify(shown?.get('options')?.indexConfig)}`,
      );
      for (const k of CANDIDATES)
        for (const rescore of [false, true]) {
          const times = [];
          let found = 0;
          for (let i = 0; i < queryVectors.length; i++) {
            const vector = Array.from(queryVectors[i]);
            const t = process.hrtime.bigint();
            const result = await session.run(cypher(rescore), { vector, k: neo4j.int(k) });
            times.push(Number(process.hrtime.bigint() - t) / 1e6);
            const got = new Set(result.records.map((r) => r.get('id')));
            found += exact[i].filter((id) => got.has(id)).length;
          }
          say(
            `  k ${k}${rescore ? ', re-scored exactly' : ''}: recall@10 ${(found / (queryVectors.length * 10)).toFixed(3)}, p50 ${percentile(times, 50).toFixed(1)} ms, p95 ${percentile(times, 95).toFixed(1)} ms`,
          );
        }
    }
  } finally {
    await session.close();
    await driver.close();
  }
}
