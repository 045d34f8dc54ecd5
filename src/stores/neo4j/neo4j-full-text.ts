import type { Session } from 'neo4j-driver';
import { z } from 'zod';

/** The full-text index `search` reads: message text and attachment text, in one index. */
export const TEXT_INDEX = 'chatgraph_message_text';

/** The labels the full-text index covers. */
export const TEXT_LABELS = ['Message', 'Attachment'] as const;

/**
 * Lucene's English analyzer: stems (Porter, as the embedded store's FTS5 does) and drops
 * English stop words (see {@link ENGLISH_STOP_WORDS}).
 */
export const TEXT_ANALYZER = 'english';

/** The words the English analyzer leaves out of the index (Lucene's English stop set). */
export const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  `a an and are as at be but by for if in into is it no not of on or such that the their then
  there these they this to was will with`.split(/\s+/),
);

/** The statement that creates the full-text index (idempotent). */
export function textIndexStatement(): string {
  return `CREATE FULLTEXT INDEX ${TEXT_INDEX} IF NOT EXISTS FOR (n:${TEXT_LABELS.join('|')}) ON EACH [n.content] OPTIONS {indexConfig: {\`fulltext.analyzer\`: '${TEXT_ANALYZER}'}}`;
}

const IndexRow = z.object({
  labelsOrTypes: z.array(z.string()),
  options: z.object({ indexConfig: z.record(z.string(), z.unknown()) }),
});

/**
 * Drops a full-text index made by an older version (messages only, or another analyzer), so
 * the schema statements create it anew; Neo4j then indexes every node again in the background
 * (awaited with the other indexes). Returns whether it was dropped.
 */
export async function dropOutdatedTextIndex(session: Session): Promise<boolean> {
  const result = await session.run(
    `SHOW FULLTEXT INDEXES YIELD name, labelsOrTypes, options WHERE name = $name RETURN labelsOrTypes, options`,
    { name: TEXT_INDEX },
  );
  const [record] = result.records;
  if (!record) return false;
  const row = IndexRow.safeParse(record.toObject());
  const current =
    row.success &&
    [...row.data.labelsOrTypes].sort().join('|') === [...TEXT_LABELS].sort().join('|') &&
    row.data.options.indexConfig['fulltext.analyzer'] === TEXT_ANALYZER;
  if (current) return false;
  await session.run(`DROP INDEX ${TEXT_INDEX}`);
  return true;
}
