import type { Session } from 'neo4j-driver';
import { z } from 'zod';
import { conversationLanguage } from '../../search/stemming.js';
import { preloadLanguageDetector } from '../../search/language-detection.js';
import { FIRST_MESSAGES, messageStems } from '../batch-language.js';

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

/**
 * The full-text index of messages' text stemmed in their own language other than English
 * (`_stems`, written with the same Snowball stemmers as the embedded store's message_stems):
 * the words come stemmed and folded already, so its analyzer only splits and folds them.
 */
export const STEMS_INDEX = 'chatgraph_message_stems';
export const STEMS_PROPERTY = '_stems';
const STEMS_ANALYZER = 'standard-folding';

/** The statement that creates the stemmed full-text index (idempotent). */
export function stemsIndexStatement(): string {
  return `CREATE FULLTEXT INDEX ${STEMS_INDEX} IF NOT EXISTS FOR (n:Message) ON EACH [n.${STEMS_PROPERTY}] OPTIONS {indexConfig: {\`fulltext.analyzer\`: '${STEMS_ANALYZER}'}}`;
}

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

/** Whether the store has the stemmed index (a store an older version wrote has not). */
export async function stemsIndexExists(session: Session): Promise<boolean> {
  const result = await session.run(
    `SHOW FULLTEXT INDEXES YIELD name WHERE name = $name RETURN name`,
    {
      name: STEMS_INDEX,
    },
  );
  return result.records.length > 0;
}

const StoredMessage = z.object({ id: z.string(), content: z.string().nullable() });
const StoredConversation = z.object({ id: z.string(), name: z.string().nullable() });

/**
 * Stems the messages a store already holds, a conversation at a time (each one's language told
 * as an import would), so a store an older version wrote finds inflected forms too, as the
 * embedded store's older files do once opened. Returns how many messages were stemmed.
 */
export async function fillStems(session: Session): Promise<number> {
  await preloadLanguageDetector();
  const owners = await session.run(`MATCH (c:Conversation) RETURN c.id AS id, c.name AS name`);
  let stemmed = 0;
  for (const record of owners.records) {
    const { id, name } = StoredConversation.parse(record.toObject());
    const result = await session.run(
      `MATCH (m:Message {_owner: $id}) RETURN m.id AS id, m.content AS content ORDER BY m._seq`,
      { id },
    );
    const messages = result.records.map((r) => StoredMessage.parse(r.toObject()));
    const first = messages.slice(0, FIRST_MESSAGES).flatMap((m) => (m.content ? [m.content] : []));
    const language = conversationLanguage(name ?? '', first);
    const rows = messages.flatMap((m) => {
      const stems = messageStems(m.content, language);
      return stems === undefined ? [] : [{ id: m.id, stems }];
    });
    if (rows.length === 0) continue;
    await session.run(
      `UNWIND $rows AS row MATCH (m:Message {id: row.id}) SET m.${STEMS_PROPERTY} = row.stems`,
      { rows },
    );
    stemmed += rows.length;
  }
  return stemmed;
}
