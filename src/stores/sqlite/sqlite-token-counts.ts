import type Database from 'better-sqlite3-multiple-ciphers';
import type { GraphNode } from '../../graph/graph-batch.js';
import { LONG_PROMPT_TOKENS, slotOf } from '../usage-reader.js';

// Token counts summed per conversation, quarter hour (UTC), model and long prompt, as
// message_counts counts messages: a usage report over a million messages reads these rows,
// not every message (see sqlite-usage.ts).

/** The table of summed token counts (made with the schema). */
export const TOKEN_COUNTS_TABLE = `CREATE TABLE IF NOT EXISTS token_counts (owner TEXT NOT NULL, slot TEXT NOT NULL, model TEXT NOT NULL, long INTEGER NOT NULL, input INTEGER NOT NULL, output INTEGER NOT NULL, cache_read INTEGER NOT NULL, cache_creation INTEGER NOT NULL, reasoning INTEGER NOT NULL, PRIMARY KEY (owner, slot, model, long)) WITHOUT ROWID`;

/** A message with a token count (the condition the partial indexes below are made with). */
export const HAS_TOKENS = `(input_tokens IS NOT NULL OR output_tokens IS NOT NULL OR cache_read_tokens IS NOT NULL OR cache_creation_tokens IS NOT NULL OR reasoning_tokens IS NOT NULL)`;

/** `HAS_TOKENS` of the message `m`. */
export const M_HAS_TOKENS = HAS_TOKENS.replace(/(\w+_tokens)/g, 'm.$1');

/** The quarter hour of `m.created_at`, in SQL, as `slotOf` makes it. */
export const M_SLOT = `CASE WHEN length(m.created_at) < 16 OR m.created_at IS NULL THEN '' ELSE substr(m.created_at, 1, 14) || CASE WHEN substr(m.created_at, 15, 2) < '15' THEN '00' WHEN substr(m.created_at, 15, 2) < '30' THEN '15' WHEN substr(m.created_at, 15, 2) < '45' THEN '30' ELSE '45' END END`;

/** Whether `m` had a long prompt, in SQL. */
export const M_LONG = `(coalesce(m.input_tokens, 0) + coalesce(m.cache_read_tokens, 0) + coalesce(m.cache_creation_tokens, 0) > ${String(LONG_PROMPT_TOKENS)})`;

/** The token sums of messages `m`, named as a token_counts row. */
export const M_SUMS = `sum(coalesce(m.input_tokens, 0)) AS input, sum(coalesce(m.output_tokens, 0)) AS output,
  sum(coalesce(m.cache_read_tokens, 0)) AS cacheRead, sum(coalesce(m.cache_creation_tokens, 0)) AS cacheCreation,
  sum(coalesce(m.reasoning_tokens, 0)) AS reasoning`;

/**
 * The indexes a usage report reads by: messages with tokens by time (the partial quarter hours
 * at a `since`/`until`), and by the response they came from (copies counted once). Made after
 * the columns they name exist.
 */
export function createUsageIndexes(db: Database.Database): void {
  db.exec(
    `CREATE INDEX IF NOT EXISTS message_token_time ON "Message" (created_at) WHERE ${HAS_TOKENS}`,
  );
  db.exec(
    `CREATE INDEX IF NOT EXISTS message_response ON "Message" (response_id) WHERE response_id IS NOT NULL`,
  );
}

/** A store made before token_counts: its messages' tokens summed once. */
export function backfillTokenCounts(db: Database.Database): void {
  const empty = db.prepare(`SELECT NOT EXISTS (SELECT 1 FROM token_counts)`).pluck().get();
  if (empty !== 1) return;
  db.exec(
    `INSERT INTO token_counts (owner, slot, model, long, input, output, cache_read, cache_creation, reasoning)
     SELECT owner, slot, model, long, input, output, cacheRead, cacheCreation, reasoning FROM (
       SELECT m.owner AS owner, ${M_SLOT} AS slot, coalesce(m.model_slug, '') AS model, ${M_LONG} AS long, ${M_SUMS}
       FROM "Message" m WHERE m.owner IS NOT NULL AND ${M_HAS_TOKENS} GROUP BY 1, 2, 3, 4)
     WHERE input + output + cacheRead + cacheCreation + reasoning > 0`,
  );
}

const FIELDS = [
  'input_tokens',
  'output_tokens',
  'cache_read_tokens',
  'cache_creation_tokens',
  'reasoning_tokens',
] as const;

const number = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/**
 * The token counts of messages summed per quarter hour, model and long prompt (keys joined by
 * NUL), each message counting `by` times (a patch takes the old messages out with -1).
 */
export function tokenCounts(
  nodes: readonly GraphNode[],
  by: number,
  sums = new Map<string, number[]>(),
): Map<string, number[]> {
  for (const node of nodes) {
    if (node.label !== 'Message') continue;
    const p = node.properties;
    const values = FIELDS.map((field) => number(p[field]));
    if (values.every((v) => v === undefined)) continue;
    const [input = 0, output = 0, cacheRead = 0, cacheCreation = 0, reasoning = 0] = values;
    const long = input + cacheRead + cacheCreation > LONG_PROMPT_TOKENS ? '1' : '0';
    const model = typeof p.model_slug === 'string' ? p.model_slug : '';
    const key = [slotOf(p.created_at), model, long].join('\u0000');
    const sum = sums.get(key) ?? [0, 0, 0, 0, 0];
    [input, output, cacheRead, cacheCreation, reasoning].forEach((v, i) => {
      sum[i] = (sum[i] ?? 0) + by * v;
    });
    sums.set(key, sum);
  }
  return sums;
}

/** The statements that keep a conversation's token_counts rows. */
export function tokenCountStatements(db: Database.Database): {
  remove: Database.Statement;
  add: Database.Statement;
  prune: Database.Statement;
} {
  return {
    remove: db.prepare(`DELETE FROM token_counts WHERE owner = ?`),
    add: db.prepare(
      `INSERT INTO token_counts (owner, slot, model, long, input, output, cache_read, cache_creation, reasoning)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(owner, slot, model, long) DO UPDATE SET input = input + excluded.input,
         output = output + excluded.output, cache_read = cache_read + excluded.cache_read,
         cache_creation = cache_creation + excluded.cache_creation, reasoning = reasoning + excluded.reasoning`,
    ),
    // A patch that took a model's last call out of a quarter hour leaves a row of zeros.
    prune: db.prepare(
      `DELETE FROM token_counts WHERE owner = ? AND input = 0 AND output = 0 AND cache_read = 0 AND cache_creation = 0 AND reasoning = 0`,
    ),
  };
}

/** Adds summed counts (see {@link tokenCounts}) to a conversation's rows. */
export function addTokenCounts(
  statements: ReturnType<typeof tokenCountStatements>,
  owner: string,
  sums: Map<string, number[]>,
): void {
  for (const [key, values] of sums) {
    if (values.every((v) => v === 0)) continue;
    const [slot = '', model = '', long = '0'] = key.split('\u0000');
    statements.add.run(owner, slot, model, Number(long), ...values);
  }
}
