// The Neo4j benchmark (issue: Neo4j as the server engine): loads the generated export of at
// least a million messages into a real Neo4j 5.26 with `chatgraph push`, and, on a sample, the
// naive way the seed's generator loads data (one auto-commit MERGE per node and per edge),
// which lives only here, as the baseline. `node bench/neo4j.mjs [--messages N] [--sample N]`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import neo4j from 'neo4j-driver';
import { EDGES, LABELS } from '../dist/api/view.js';
import { findProvider } from '../dist/api/sources.js';
import { projectConversation } from '../dist/graph/project-conversation.js';
import { writeChatgptExport } from '../dist/sample/write-samples.js';
import { Neo4jStore } from '../dist/neo4j.js';
import { startNeo4j } from '../scripts/neo4j-server.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) =>
  args.includes(name) ? Number(args[args.indexOf(name) + 1]) : fallback;
const messages = option('--messages', 1_000_000);
const sampleConversations = option('--sample', 300);
const work = join(root, '.bench');
mkdirSync(work, { recursive: true });
const cli = join(root, 'dist', 'cli', 'main.js');
const say = (line) => process.stdout.write(`${line}\n`);
const seconds = (t) => Number(process.hrtime.bigint() - t) / 1e9;

// The same export and bundle as bench/graph.mjs (made here when that has not run).
const exportPath = join(work, `chatgpt-${messages}-messages.zip`);
if (!existsSync(exportPath)) {
  process.stderr.write(`generating ${exportPath}…\n`);
  await writeChatgptExport(exportPath, { seed: 77, targetMessages: messages, longTurns: 1000 });
}
const data = join(work, messages === 1_000_000 ? 'graph-data' : `graph-data-${messages}`);
if (!existsSync(join(data, 'bundle'))) {
  process.stderr.write(`importing ${exportPath} into ${data}…\n`);
  execFileSync(process.execPath, [cli, 'import', exportPath, '--data-dir', data, '-q']);
}

const server = await startNeo4j({ heap: '4g' });
const env = { ...process.env, NEO4J_PASSWORD: server.target.password };
try {
  // 1. The baseline, on a sample: the bundle's first conversations, one auto-commit statement
  //    per node and per edge (with the same uniqueness constraints, so lookups are indexed).
  const conversationsDir = join(data, 'bundle', 'conversations');
  const names = readdirSync(conversationsDir).sort().slice(0, sampleConversations);
  const batches = names.map((name) => {
    const conversation = JSON.parse(readFileSync(join(conversationsDir, name), 'utf8'));
    const provider = findProvider(conversation.provider.name);
    if (!provider) throw new Error(`${name}: no provider ${conversation.provider.name}`);
    return projectConversation(conversation, provider, { deep: false });
  });
  const store = await Neo4jStore.open(server.target);
  await store.clear(); // creates the constraints and indexes, as a real load would have them
  await store.close();
  const driver = neo4j.driver(server.target.url, neo4j.auth.basic('neo4j', server.target.password));
  const session = driver.session();
  let naiveRows = 0;
  const naiveStart = process.hrtime.bigint();
  for (const batch of batches) {
    for (const node of batch.nodes) {
      const props = {};
      for (const [key, value] of Object.entries(node.properties)) {
        if (value === null) continue;
        props[key] =
          LABELS[node.label].properties[key] === 'integer' && typeof value === 'number'
            ? neo4j.int(value)
            : value;
      }
      await session.run(`MERGE (n:${node.label} {id: $id}) SET n += $props`, {
        id: node.id,
        props,
      });
      naiveRows++;
    }
    for (const edge of batch.edges) {
      const { from, to } = EDGES[edge.kind];
      const type = edge.kind === 'STEP_NEXT' ? 'NEXT' : edge.kind;
      await session.run(
        `MATCH (a:${from} {id: $from}) MATCH (b:${to} {id: $to}) MERGE (a)-[:${type}]->(b)`,
        { from: edge.from, to: edge.to },
      );
      naiveRows++;
    }
  }
  const naiveSeconds = seconds(naiveStart);
  await session.close();
  await driver.close();
  const naiveRate = naiveRows / naiveSeconds;
  say(
    `naive load (one auto-commit MERGE per node and per edge), ${batches.length} conversations: ${naiveRows} rows in ${naiveSeconds.toFixed(1)} s = ${Math.round(naiveRate)} rows/s`,
  );

  // 2. chatgraph push of the whole bundle into an emptied database.
  const emptied = await Neo4jStore.open(server.target);
  await emptied.clear();
  await emptied.close();
  const pushStart = process.hrtime.bigint();
  const out = execFileSync(
    process.execPath,
    [cli, 'push', '--data-dir', data, '--neo4j', server.target.url, '-q'],
    { env, encoding: 'utf8' },
  );
  const pushSeconds = seconds(pushStart);
  const loaded = await Neo4jStore.open(server.target);
  const counts = await loaded.counts();
  const rows =
    Object.values(counts.nodes).reduce((a, b) => a + b, 0) +
    Object.values(counts.edges).reduce((a, b) => a + b, 0);
  say(`push: ${out.trim()}`);
  const rate = rows / pushSeconds;
  say(
    `chatgraph push of ${counts.nodes.Message} messages: ${rows} rows (nodes and edges) in ${pushSeconds.toFixed(1)} s = ${Math.round(rate)} rows/s, ${(rate / naiveRate).toFixed(1)}x the naive load (target ≥ 20x)`,
  );

  // 3. The same push again: nothing changed, nothing written.
  const againStart = process.hrtime.bigint();
  execFileSync(
    process.execPath,
    [cli, 'push', '--data-dir', data, '--neo4j', server.target.url, '-q'],
    {
      env,
    },
  );
  say(`unchanged push: ${seconds(againStart).toFixed(1)} s`);

  // 4. Search on Neo4j's full-text index, for comparison with the embedded store.
  const times = [];
  for (const text of ['postgres', 'sourdough levain', 'kubernetes ingress', 'the', 'borr*']) {
    const t = process.hrtime.bigint();
    await loaded.search({ text, limit: 20 });
    times.push(seconds(t) * 1000);
  }
  say(`search on Neo4j: ${times.map((ms) => `${ms.toFixed(0)} ms`).join(', ')}`);
  await loaded.close();
} finally {
  await server.dispose();
}
