import type Database from 'better-sqlite3-multiple-ciphers';
import { z } from 'zod';
import {
  TokenSlotRow,
  UncountedMessageRow,
  UsageConversationRow,
  slotAtOrAfter,
  ModelRow,
  UncountedRow,
  withModels,
  slotOf,
  slotStart,
  type TokenCell,
  type TokenSlot,
  type TokenTotals,
  type UncountedMessage,
  type UncountedSource,
  type UsageFilter,
  type UsageGrain,
  type UsageReader,
} from '../usage-reader.js';
import { cellsOf } from '../usage-cells.js';
import { and, conversationWhere, summedCells, type Within } from './sqlite-usage-cells.js';
import { takenOut, withoutCopies, type ResponseCopy } from '../usage-copies.js';
import { ColumnRow, Flag, sqliteRows, tableNames } from './sqlite-rows.js';
import { M_HAS_TOKENS, M_LONG, M_SLOT, M_SUMS } from './sqlite-token-counts.js';

// `long` is a comparison's 0 or 1 (a number first: a union tried as a boolean first made and
// threw away an issue for every row of a million-message report).
const SlotRow = TokenSlotRow.extend({ long: Flag });
const CopyRow = SlotRow.omit({ slot: true }).extend({
  response: z.string(),
  id: z.string(),
  createdAt: z.string().nullable(),
  started: z.string().nullable(),
});

/** What an older store lacks: its token columns, the response ids, the summed counts. */
interface Holdings {
  tokens: boolean;
  responses: boolean;
  counts: boolean;
}

/**
 * The embedded store's usage reads: whole quarter hours from `token_counts`, the parts of a
 * quarter hour a `since` or `until` cuts from the messages themselves (by the partial index on
 * their time), and copies of a response taken out again (by the index on `response_id`). A
 * store an older version made, open read-only before its upgrade, is read from its messages.
 */
export class SqliteUsage implements UsageReader {
  /** `connection` gives the store's connection (made after this reader). */
  constructor(private readonly connection: () => Database.Database) {}

  private get db(): Database.Database {
    return this.connection();
  }

  private holdings(): Holdings {
    const columns = new Set(
      sqliteRows(ColumnRow, this.db.prepare(`PRAGMA table_info("Message")`).all(), 'column').map(
        (c) => c.name,
      ),
    );
    return {
      tokens: columns.has('input_tokens') && columns.has('reasoning_tokens'),
      responses: columns.has('response_id'),
      counts: tableNames(this.db).includes('token_counts'),
    };
  }

  tokenTotals(filter: UsageFilter): Promise<TokenTotals> {
    const have = this.holdings();
    if (!have.tokens) return Promise.resolve({ slots: [], conversations: [] });
    const slots = have.counts ? this.summedSlots(filter) : this.messageSlots(filter, {});
    const copies = have.responses ? this.copies(filter) : [];
    const counted = withoutCopies(slots, copies);
    return Promise.resolve({ slots: counted, conversations: this.conversations(counted) });
  }

  async tokenCells(filter: UsageFilter, grain: UsageGrain): Promise<TokenCell[]> {
    const have = this.holdings();
    if (!have.tokens) return [];
    if (!have.counts) return cellsOf(await this.tokenTotals(filter), grain);
    const copies = have.responses ? this.copies(filter) : [];
    // The sessions a copy is taken out of (resumed ones: a handful) are summed quarter hour by
    // quarter hour as tokenTotals sums them, the rest by SQL to the grain.
    const held = [...new Set(takenOut(copies).map((copy) => copy.conversationId))];
    const cells = summedCells(this.db, filter, grain, held);
    if (held.length > 0) {
      const slots = withoutCopies(this.summedSlots(filter, { only: held }), copies);
      cells.push(...cellsOf({ slots, conversations: this.conversations(slots) }, grain));
    }
    return cells;
  }

  /** Whole quarter hours from the sums, and the cut ones from the messages. */
  private summedSlots(filter: UsageFilter, within: Within = {}): TokenSlot[] {
    const { since, until } = filter;
    const from = since !== undefined ? slotAtOrAfter(since) : undefined;
    const to = until !== undefined ? slotOf(until) : undefined;
    if (from !== undefined && to !== undefined && from >= to)
      return this.messageSlots(filter, { since, until }, within);
    const c = conversationWhere(filter, within);
    const where = [...c.where];
    const params: Record<string, unknown> = { ...c.params };
    if (from !== undefined || to !== undefined) where.push(`t.slot <> ''`);
    if (from !== undefined) {
      where.push('t.slot >= @from');
      params.from = from;
    }
    if (to !== undefined) {
      where.push('t.slot < @to');
      params.to = to;
    }
    const rows = this.db
      .prepare(
        `SELECT t.slot AS slot, t.owner AS conversationId, t.model AS model, t.long AS long, t.input AS input,
           t.output AS output, t.cache_read AS cacheRead, t.cache_creation AS cacheCreation, t.reasoning AS reasoning
         FROM token_counts t JOIN "Conversation" c ON c.id = t.owner WHERE 1${and(where)}`,
      )
      .all(params);
    const slots = sqliteRows(SlotRow, rows, 'token counts');
    if (since !== undefined && from !== undefined && slotStart(from) > since)
      slots.push(...this.messageSlots(filter, { since, until: slotStart(from) }, within));
    if (until !== undefined && to !== undefined && slotStart(to) < until)
      slots.push(...this.messageSlots(filter, { since: slotStart(to), until }, within));
    return slots;
  }

  /** The token counts of messages in [since, until), summed per slot. */
  private messageSlots(
    filter: UsageFilter,
    range: { since?: string | undefined; until?: string | undefined },
    within: Within = {},
  ): TokenSlot[] {
    const c = conversationWhere(filter, within);
    const where = [...c.where];
    const params: Record<string, unknown> = { ...c.params };
    if (range.since !== undefined) {
      where.push('m.created_at >= @since');
      params.since = range.since;
    }
    if (range.until !== undefined) {
      where.push('m.created_at < @until');
      params.until = range.until;
    }
    const rows = this.db
      .prepare(
        `SELECT ${M_SLOT} AS slot, m.owner AS conversationId, coalesce(m.model_slug, '') AS model,
           ${M_LONG} AS long, ${M_SUMS}
         FROM "Message" m JOIN "Conversation" c ON c.id = m.owner
         WHERE ${M_HAS_TOKENS}${and(where)} GROUP BY 1, 2, 3, 4`,
      )
      .all(params);
    return sqliteRows(SlotRow, rows, 'token counts');
  }

  /** Every copy of a response held more than once, among the messages the filter selects. */
  private copies(filter: UsageFilter): ResponseCopy[] {
    const c = conversationWhere(filter);
    const where = [...c.where];
    const params: Record<string, unknown> = { ...c.params };
    if (filter.since !== undefined) {
      where.push('m.created_at >= @since');
      params.since = filter.since;
    }
    if (filter.until !== undefined) {
      where.push('m.created_at < @until');
      params.until = filter.until;
    }
    const rows = this.db
      .prepare(
        `SELECT m.response_id AS response, m.id AS id, m.created_at AS createdAt, c.created_at AS started,
           m.owner AS conversationId, coalesce(m.model_slug, '') AS model, ${M_LONG} AS long,
           coalesce(m.input_tokens, 0) AS input, coalesce(m.output_tokens, 0) AS output,
           coalesce(m.cache_read_tokens, 0) AS cacheRead, coalesce(m.cache_creation_tokens, 0) AS cacheCreation,
           coalesce(m.reasoning_tokens, 0) AS reasoning
         FROM "Message" m JOIN "Conversation" c ON c.id = m.owner
         WHERE m.response_id IN (SELECT response_id FROM "Message" WHERE response_id IS NOT NULL
           GROUP BY response_id HAVING count(*) > 1)${and(where)}`,
      )
      .all(params);
    return sqliteRows(CopyRow, rows, 'copied responses').map((row) => ({
      ...row,
      slot: slotOf(row.createdAt),
    }));
  }

  private conversations(slots: readonly TokenSlot[]): TokenTotals['conversations'] {
    const ids = [...new Set(slots.map((s) => s.conversationId))];
    if (ids.length === 0) return [];
    const rows = this.db
      .prepare(
        `SELECT c.id AS id, c.source AS source, c.name AS title,
           (SELECT coalesce(p.name, p.path, p.project_id) FROM "HAS_SESSION" s JOIN "Project" p ON p.id = s.src
            WHERE s.dst = c.id ORDER BY p.id LIMIT 1) AS project
         FROM "Conversation" c WHERE c.id IN (SELECT value FROM json_each(@ids))`,
      )
      .all({ ids: JSON.stringify(ids) });
    return sqliteRows(UsageConversationRow, rows, 'usage conversations');
  }

  /** The condition that conversation `c` has no token count, for what this store holds. */
  private uncountedCondition(have: Holdings): string {
    if (!have.tokens) return '1';
    if (have.counts) return 'NOT EXISTS (SELECT 1 FROM token_counts t WHERE t.owner = c.id)';
    return `NOT EXISTS (SELECT 1 FROM "Message" m WHERE m.owner = c.id AND ${M_HAS_TOKENS})`;
  }

  private startedWhere(filter: UsageFilter): { where: string[]; params: Record<string, unknown> } {
    const c = conversationWhere(filter);
    const where = [...c.where, 'c.message_count > 0'];
    const params: Record<string, unknown> = { ...c.params };
    if (filter.since !== undefined) {
      where.push('c.created_at >= @since');
      params.since = filter.since;
    }
    if (filter.until !== undefined) {
      where.push('c.created_at < @until');
      params.until = filter.until;
    }
    return { where, params };
  }

  uncounted(filter: UsageFilter): Promise<UncountedSource[]> {
    const none = this.uncountedCondition(this.holdings());
    const { where, params } = this.startedWhere(filter);
    const sources = sqliteRows(
      UncountedRow,
      this.db
        .prepare(
          `SELECT c.source AS source, count(*) AS of, sum(CASE WHEN ${none} THEN 1 ELSE 0 END) AS conversations
           FROM "Conversation" c WHERE 1${and(where)} GROUP BY c.source ORDER BY c.source`,
        )
        .all(params),
      'conversations without token counts',
    ).filter((row) => row.conversations > 0);
    // Every conversation counted (a coding agent's folder): no models to name.
    if (sources.length === 0) return Promise.resolve([]);
    const models = sqliteRows(
      ModelRow,
      this.db
        .prepare(
          `SELECT c.source AS source, mc.model AS model, sum(mc.messages) AS messages
           FROM message_counts mc JOIN "Conversation" c ON c.id = mc.owner
           WHERE mc.role = 'assistant' AND mc.model <> '' AND ${none}${and(where)}
           GROUP BY c.source, mc.model ORDER BY messages DESC, mc.model`,
        )
        .all(params),
      'models without token counts',
    );
    return Promise.resolve(withModels(sources, models));
  }

  async *uncountedMessages(
    filter: UsageFilter,
    sources: readonly string[],
  ): AsyncIterable<UncountedMessage> {
    const none = this.uncountedCondition(this.holdings());
    const { where, params } = this.startedWhere(filter);
    const page = this.db.prepare(
      `SELECT m.rowid AS at, m.owner AS conversationId, m.created_at AS createdAt, m.role AS role,
         m.model_slug AS model, coalesce(m.content, '') AS content
       FROM "Message" m JOIN "Conversation" c ON c.id = m.owner
       WHERE m.rowid > @after AND m.role IN ('user', 'assistant') AND coalesce(m.hidden, 0) = 0
         AND coalesce(m.is_thought, 0) = 0 AND c.source IN (SELECT value FROM json_each(@sources))
         AND ${none}${and(where)}
       ORDER BY m.rowid LIMIT 2000`,
    );
    const PageRow = UncountedMessageRow.extend({ at: z.number() });
    // A page at a time: the connection is free between pages for the caller's other reads.
    for (let after = 0; ;) {
      const rows = sqliteRows(
        PageRow,
        page.all({ ...params, after, sources: JSON.stringify(sources) }),
        'messages without token counts',
      );
      for (const { at: _at, ...message } of rows) yield message;
      const last = rows.at(-1);
      if (last === undefined) return;
      after = last.at;
      await Promise.resolve();
    }
  }
}
