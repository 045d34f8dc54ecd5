import { z } from 'zod';
import {
  LONG_PROMPT_TOKENS,
  TokenSlotRow,
  UncountedMessageRow,
  UsageConversationRow,
  ModelRow,
  UncountedRow,
  withModels,
} from '../usage-reader.js';
import type {
  TokenCell,
  TokenTotals,
  UncountedMessage,
  UncountedSource,
  UsageFilter,
  UsageGrain,
  UsageReader,
} from '../usage-reader.js';
import { cellsOf } from '../usage-cells.js';
import { withoutCopies } from '../usage-copies.js';
import { CYPHER } from './neo4j-search.js';
import { parseRows } from './neo4j-rows.js';
import type { Neo4jRead } from './neo4j-sessions.js';

const FIELDS = [
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_creation_tokens',
  'reasoning_tokens',
];

/** That message `m` has a token count. */
const hasTokens = (m: string): string =>
  `(${FIELDS.map((f) => `${m}.${f} IS NOT NULL`).join(' OR ')})`;

// The quarter hour of m.created_at as slotOf makes it, and whether its prompt was long.
const SLOT = `CASE WHEN m.created_at IS NULL OR size(m.created_at) < 16 THEN '' ELSE substring(m.created_at, 0, 14) +
  CASE WHEN substring(m.created_at, 14, 2) < '15' THEN '00' WHEN substring(m.created_at, 14, 2) < '30' THEN '15'
  WHEN substring(m.created_at, 14, 2) < '45' THEN '30' ELSE '45' END END`;
const LONG = `coalesce(m.input_tokens, 0) + coalesce(m.cache_read_tokens, 0) + coalesce(m.cache_creation_tokens, 0) > ${String(LONG_PROMPT_TOKENS)}`;
const COUNTS = `coalesce(m.input_tokens, 0) AS input, coalesce(m.output_tokens, 0) AS output,
  coalesce(m.cache_read_tokens, 0) AS cacheRead, coalesce(m.cache_creation_tokens, 0) AS cacheCreation,
  coalesce(m.reasoning_tokens, 0) AS reasoning`;

const CopyRow = TokenSlotRow.extend({
  response: z.string(),
  id: z.string(),
  createdAt: z.string().nullable(),
  started: z.string().nullable(),
});

interface Conditions {
  where: string[];
  params: Record<string, unknown>;
}

/** The filter over the conversation `c` and, at `time`, the times of its messages or its start. */
function conditions(filter: UsageFilter, time: string): Conditions {
  const where: string[] = [];
  const params: Record<string, unknown> = {};
  if (filter.source !== undefined) {
    where.push('c.source = $source');
    params.source = filter.source;
  }
  if (filter.project !== undefined && filter.project.trim() !== '') {
    where.push(CYPHER.projectContains);
    params.project = CYPHER.titleContains.value(filter.project.trim());
  }
  if (filter.since !== undefined) {
    where.push(`${time} >= $since`);
    params.since = filter.since;
  }
  if (filter.until !== undefined) {
    where.push(`${time} < $until`);
    params.until = filter.until;
  }
  return { where, params };
}

const and = (where: readonly string[]): string => where.map((w) => ` AND ${w}`).join('');

/**
 * Neo4j's usage reads: summed by the server from the messages themselves (it keeps no sums of
 * its own, unlike the embedded store), each copy of a response but the first taken out.
 */
export class Neo4jUsage implements UsageReader {
  constructor(private readonly read: Neo4jRead) {}

  async tokenTotals(filter: UsageFilter): Promise<TokenTotals> {
    const { where, params } = conditions(filter, 'm.created_at');
    const slots = parseRows(
      TokenSlotRow,
      await this.read(
        `MATCH (c:Conversation)-[:HAS_MESSAGE]->(m:Message) WHERE ${hasTokens('m')}${and(where)}
         WITH c, m, ${SLOT} AS slot, ${LONG} AS long
         RETURN slot, c.id AS conversationId, coalesce(m.model_slug, '') AS model, long,
           sum(coalesce(m.input_tokens, 0)) AS input, sum(coalesce(m.output_tokens, 0)) AS output,
           sum(coalesce(m.cache_read_tokens, 0)) AS cacheRead,
           sum(coalesce(m.cache_creation_tokens, 0)) AS cacheCreation,
           sum(coalesce(m.reasoning_tokens, 0)) AS reasoning`,
        params,
      ),
      'token counts',
    );
    const copies = parseRows(
      CopyRow,
      await this.read(
        `MATCH (r:Message) WHERE r.response_id IS NOT NULL
         WITH r.response_id AS response, count(r) AS copies WHERE copies > 1
         MATCH (c:Conversation)-[:HAS_MESSAGE]->(m:Message {response_id: response}) WHERE true${and(where)}
         RETURN response, m.id AS id, m.created_at AS createdAt, c.created_at AS started, ${SLOT} AS slot,
           c.id AS conversationId, coalesce(m.model_slug, '') AS model, ${LONG} AS long, ${COUNTS}`,
        params,
      ),
      'copied responses',
    );
    const counted = withoutCopies(slots, copies);
    const ids = [...new Set(counted.map((s) => s.conversationId))];
    const conversations = parseRows(
      UsageConversationRow,
      await this.read(
        `MATCH (c:Conversation) WHERE c.id IN $ids
         OPTIONAL MATCH (p:Project)-[:HAS_SESSION]->(c)
         WITH c, p ORDER BY p.id
         WITH c, head(collect(coalesce(p.name, p.path, p.project_id))) AS project
         RETURN c.id AS id, c.source AS source, c.name AS title, project`,
        { ids },
      ),
      'usage conversations',
    );
    return { slots: counted, conversations };
  }

  /** Summed to the grain here, from the quarter hours the server sums. */
  async tokenCells(filter: UsageFilter, grain: UsageGrain): Promise<TokenCell[]> {
    return cellsOf(await this.tokenTotals(filter), grain);
  }

  async uncounted(filter: UsageFilter): Promise<UncountedSource[]> {
    const { where, params } = conditions(filter, 'c.created_at');
    const none = `NOT EXISTS { MATCH (c)-[:HAS_MESSAGE]->(t:Message) WHERE ${hasTokens('t')} }`;
    const sources = parseRows(
      UncountedRow,
      await this.read(
        `MATCH (c:Conversation) WHERE c.message_count > 0${and(where)}
         WITH c, ${none} AS uncounted
         RETURN c.source AS source, count(c) AS of, sum(CASE WHEN uncounted THEN 1 ELSE 0 END) AS conversations
         ORDER BY source`,
        params,
      ),
      'conversations without token counts',
    ).filter((row) => row.conversations > 0);
    const models = parseRows(
      ModelRow,
      await this.read(
        `MATCH (c:Conversation) WHERE c.message_count > 0${and(where)} AND ${none}
         MATCH (c)-[:HAS_MESSAGE]->(m:Message) WHERE m.role = 'assistant' AND m.model_slug IS NOT NULL AND m.model_slug <> ''
         RETURN c.source AS source, m.model_slug AS model, count(m) AS messages ORDER BY messages DESC, model`,
        params,
      ),
      'models without token counts',
    );
    return withModels(sources, models);
  }

  async *uncountedMessages(
    filter: UsageFilter,
    sources: readonly string[],
  ): AsyncIterable<UncountedMessage> {
    const { where, params } = conditions(filter, 'c.created_at');
    const PageRow = UncountedMessageRow.extend({ id: z.string() });
    for (let after = ''; ;) {
      const rows = parseRows(
        PageRow,
        await this.read(
          `MATCH (c:Conversation) WHERE c.source IN $sources AND c.message_count > 0${and(where)}
             AND NOT EXISTS { MATCH (c)-[:HAS_MESSAGE]->(t:Message) WHERE ${hasTokens('t')} }
           MATCH (c)-[:HAS_MESSAGE]->(m:Message)
           WHERE m.id > $after AND m.role IN ['user', 'assistant'] AND coalesce(m.hidden, false) = false
             AND coalesce(m.is_thought, false) = false
           RETURN m.id AS id, c.id AS conversationId, m.created_at AS createdAt, m.role AS role,
             m.model_slug AS model, coalesce(m.content, '') AS content
           ORDER BY m.id LIMIT 2000`,
          { ...params, sources: [...sources], after },
        ),
        'messages without token counts',
      );
      for (const { id: _id, ...message } of rows) yield message;
      const last = rows.at(-1);
      if (last === undefined) return;
      after = last.id;
    }
  }
}
