import type { Session } from 'neo4j-driver';
import { z } from 'zod';

/** The label of a chunk's vector: chatgraph's own, so user Cypher never sees it. */
export const VECTOR_LABEL = 'ChatgraphVector';
/** Neo4j's native vector index over {@link VECTOR_LABEL}'s `embedding`. */
export const VECTOR_INDEX = 'chatgraph_vectors';

/**
 * The HNSW settings of the vector index, chosen by `bench/recall.mjs --only-neo4j --sweep` at
 * 100,000 vectors (docs/performance.md). Neo4j 5.26's defaults (m 16, ef_construction 100,
 * vectors quantized to a byte) stop at 0.93 of the exact ten however many candidates are asked:
 * quantization is what loses them. Full vectors with m 32 and ef_construction 200 find 0.996
 * of them from 100 candidates (m 16, ef_construction 100: 0.992), at about twice the build time.
 */
export const VECTOR_INDEX_SETTINGS: Readonly<Record<string, number | boolean>> = {
  'vector.hnsw.m': 32,
  'vector.hnsw.ef_construction': 200,
  'vector.quantization.enabled': false,
};

/** The statement that creates the vector index for vectors of `dimensions` (idempotent). */
export function vectorIndexStatement(dimensions: number): string {
  const settings = Object.entries(VECTOR_INDEX_SETTINGS)
    .map(([key, value]) => `\`${key}\`: ${String(value)}`)
    .join(', ');
  return `CREATE VECTOR INDEX ${VECTOR_INDEX} IF NOT EXISTS FOR (v:${VECTOR_LABEL}) ON (v.embedding)
    OPTIONS {indexConfig: {\`vector.dimensions\`: ${String(Math.trunc(dimensions))}, \`vector.similarity_function\`: 'cosine', ${settings}}}`;
}

// SHOW INDEXES gives the integers as the driver's Integer: read as text, they are plain.
const IndexConfig = z.object({
  dimensions: z.coerce.number().int().positive(),
  config: z.record(z.string(), z.unknown()),
});

/** Whether an index's settings are the ones {@link VECTOR_INDEX_SETTINGS} asks for. */
function current(config: Record<string, unknown>): boolean {
  return Object.entries(VECTOR_INDEX_SETTINGS).every(
    ([key, value]) => String(config[key]) === String(value),
  );
}

/**
 * Makes the vector index again when an older version made it with other HNSW settings (the
 * index's dimensions kept): Neo4j then indexes every vector again in the background, awaited
 * here, since a search of an index still filling fails. Returns whether it was made again.
 */
export async function renewOutdatedVectorIndex(session: Session): Promise<boolean> {
  const result = await session.run(
    `SHOW VECTOR INDEXES YIELD name, options WHERE name = $name
     RETURN toString(options.indexConfig.\`vector.dimensions\`) AS dimensions, options.indexConfig AS config`,
    { name: VECTOR_INDEX },
  );
  const [record] = result.records;
  if (!record) return false;
  const index = IndexConfig.safeParse(record.toObject());
  // An index whose dimensions cannot be read is left for the next `reset` to make anew.
  if (!index.success || current(index.data.config)) return false;
  await session.run(`DROP INDEX ${VECTOR_INDEX}`);
  await session.run(vectorIndexStatement(index.data.dimensions));
  await session.run(`CALL db.awaitIndex('${VECTOR_INDEX}', 3600)`);
  return true;
}
