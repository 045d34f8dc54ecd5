// Issue 45, a million messages in under a second: the embedded store sums a usage report in SQL
// to its grain (local day at a fixed offset per stretch of the zone, session or project; source,
// model, long prompt), with the copies of a response and the quarter hours a since/until cuts
// handled there. Here that report equals the one summed quarter hour by quarter hour from
// `tokenTotals`, on random token rows in a real store and in zones whose offsets change.
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { GraphBatch, GraphEdge, GraphNode } from '../src/graph/graph-batch.js';
import { timestampOf } from '../src/model/time.js';
import { SqliteStore } from '../src/stores/sqlite/sqlite-store.js';
import { LONG_PROMPT_TOKENS, type UsageFilter } from '../src/stores/usage-reader.js';
import { SHIPPED_PRICES, priceOf, type PriceTable } from '../src/usage/prices.js';
import { USAGE_GROUPS, summarizeUsage, usageReport } from '../src/usage/usage-report.js';
import { boundOf, zoneFormat } from '../src/usage/usage-zone.js';
import { tempDir } from './support/convert-to-temp.js';

// Each zone with an instant it changes its offset at (New York's spring and fall, Adelaide's
// autumn and spring; Kolkata and UTC keep theirs), and the UTC hours of its local midnights.
const ZONED = [
  ['America/New_York', '2026-03-08T07:00:00Z', [4, 5]],
  ['America/New_York', '2026-11-01T06:00:00Z', [4, 5]],
  ['Australia/Adelaide', '2026-04-04T16:30:00Z', [13.5, 14.5]],
  ['Australia/Adelaide', '2026-10-03T16:30:00Z', [13.5, 14.5]],
  ['Asia/Kolkata', '2026-03-08T07:00:00Z', [18.5]],
  ['UTC', '2026-11-01T06:00:00Z', [0]],
] as const;

// A model with each price, one with no cache prices (a quarter hour that reads the cache is
// unpriced, one that does not is priced), and one with none.
const PRICES: PriceTable = {
  ...SHIPPED_PRICES,
  models: { ...SHIPPED_PRICES.models, 'no-cache-model': { input: 0.3, output: 1.7 } },
};
const MODELS = ['claude-sonnet-4-5', 'gpt-5', 'no-cache-model', 'unknown-model', ''];

// Half the counts missing (a log that gives some fields only), small ones often 0.
const count = fc.option(fc.integer({ min: 0, max: 5_000 }), { nil: undefined, freq: 2 });

/** A zone's local midnights and change, as UTC hours (with their fraction). */
const hoursOf = (zoned: (typeof ZONED)[number]): number[] => [
  ...zoned[2],
  (Date.parse(zoned[1]) % 86_400_000) / 3_600_000,
];

/**
 * Seconds from the change's UTC midnight, within 20 minutes of one of `hours` (UTC) on a day
 * around it: where a local midnight, the change, or a bound's cut quarter hour is.
 */
const near = (hours: readonly number[]): fc.Arbitrary<number> =>
  fc
    .tuple(
      fc.integer({ min: -2, max: 2 }),
      fc.constantFrom(...hours),
      fc.integer({ min: -1200, max: 1200 }),
    )
    .map(([day, hour, seconds]) => day * 86_400 + hour * 3600 + seconds);

const messageIn = (hours: readonly number[]) =>
  fc.record({
    // Mostly near a local midnight of the zone or its change, sometimes anywhere around, a
    // year later (more stretches), or no time at all.
    at: fc.option(
      fc.oneof(
        { weight: 4, arbitrary: near(hours) },
        { weight: 2, arbitrary: fc.integer({ min: -3 * 86_400, max: 4 * 86_400 }) },
        { weight: 1, arbitrary: fc.integer({ min: 365 * 86_400, max: 400 * 86_400 }) },
      ),
      { nil: undefined, freq: 12 },
    ),
    model: fc.constantFrom(...MODELS),
    input: count,
    output: count,
    cacheRead: fc.oneof(count, fc.constant(LONG_PROMPT_TOKENS)),
    cacheCreation: count,
    reasoning: count,
    // Now and then a response id shared with another message, of this session or another (a
    // resumed one's copy): counted once. (A session holding a copy is summed quarter hour by
    // quarter hour: kept rare, most sessions are summed in SQL.)
    response: fc.oneof(
      { weight: 15, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom('r1', 'r2') },
    ),
  });

const sessionIn = (hours: readonly number[]) =>
  fc.record({
    source: fc.constantFrom('claude-code', 'codex', 'gemini-cli'),
    project: fc.constantFrom(null, 'alpha', 'beta'),
    title: fc.constantFrom('one', 'two'),
    started: fc.integer({ min: -4 * 86_400, max: 0 }),
    messages: fc.array(messageIn(hours), { maxLength: 10 }),
  });

/** A bound's seconds from the change's UTC midnight, to order two. */
const at = (bound: { seconds: number } | { days: number }): number =>
  'days' in bound ? bound.days * 86_400 : bound.seconds;

/** A value one time in four, else undefined. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });

// A bound: a time (as the messages' times, or anywhere around), or a plain date (a local
// midnight) of a day around the change; missing half the time.
const boundIn = (hours: readonly number[]) =>
  fc.option(
    fc.oneof(
      { weight: 2, arbitrary: near(hours).map((seconds) => ({ seconds })) },
      {
        weight: 1,
        arbitrary: fc
          .integer({ min: -3 * 86_400, max: 4 * 86_400 })
          .map((seconds) => ({ seconds })),
      },
      { weight: 1, arbitrary: fc.integer({ min: -2, max: 3 }).map((days) => ({ days })) },
    ),
    { nil: undefined, freq: 2 },
  );

const Case = fc.constantFrom(...ZONED).chain((zoned) =>
  fc.record({
    zoned: fc.constant(zoned),
    // Near its local midnights, and near the change itself.
    sessions: fc.array(sessionIn(hoursOf(zoned)), {
      minLength: 1,
      maxLength: 5,
    }),
    // Days, weeks and months most: what the zone's offsets matter to.
    by: fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom('day', 'week', 'month') },
      { weight: 2, arbitrary: fc.constantFrom(...USAGE_GROUPS) },
    ),
    breakdown: fc.boolean(),
    // The bounds in order (either may be missing).
    bounds: fc
      .tuple(boundIn(hoursOf(zoned)), boundIn(hoursOf(zoned)))
      .map(([a, b]) => (a !== undefined && b !== undefined && at(b) < at(a) ? [b, a] : [a, b])),
    // Mostly every source and project.
    source: sometimes(fc.constantFrom('claude-code', 'codex')),
    project: sometimes(fc.constant('alp')),
  }),
);

type Case = typeof Case extends fc.Arbitrary<infer T> ? T : never;

/** The UTC midnight of the day the case's zone changes its offset: the times count from it. */
const dayOf = (c: Case): number => Date.parse(`${c.zoned[1].slice(0, 10)}T00:00:00Z`);

function batchesOf(c: Case): GraphBatch[] {
  return c.sessions.map((session, s) => {
    const id = `conv-${String(s)}`;
    const nodes: GraphNode[] = [
      {
        label: 'Conversation',
        id,
        properties: {
          name: session.title,
          source: session.source,
          created_at: timestampOf(new Date(dayOf(c) + session.started * 1000)),
          message_count: session.messages.length,
        },
      },
    ];
    const edges: GraphEdge[] = [];
    session.messages.forEach((m, i) => {
      const mid = `${id}-m${String(i)}`;
      const properties: GraphNode['properties'] = { role: 'assistant', content: 'reply' };
      if (m.at !== undefined)
        properties.created_at = timestampOf(new Date(dayOf(c) + m.at * 1000 + (i % 7) * 113));
      if (m.model !== '') properties.model_slug = m.model;
      if (m.input !== undefined) properties.input_tokens = m.input;
      if (m.output !== undefined) properties.output_tokens = m.output;
      if (m.cacheRead !== undefined) properties.cache_read_tokens = m.cacheRead;
      if (m.cacheCreation !== undefined) properties.cache_creation_tokens = m.cacheCreation;
      if (m.reasoning !== undefined) properties.reasoning_tokens = m.reasoning;
      if (m.response !== undefined) properties.response_id = m.response;
      nodes.push({ label: 'Message', id: mid, properties });
      edges.push({ kind: 'HAS_MESSAGE', from: id, to: mid });
    });
    if (session.project !== null) {
      const project = `project:${session.project}`;
      nodes.push({ label: 'Project', id: project, properties: { name: session.project } });
      edges.push({ kind: 'HAS_SESSION', from: project, to: id });
    }
    return { owner: id, nodes, edges };
  });
}

/** A bound as the query takes it: a plain date, or a time. */
const boundText = (c: Case, bound: Case['bounds'][0]): string | undefined =>
  bound === undefined
    ? undefined
    : 'days' in bound
      ? new Date(dayOf(c) + bound.days * 86_400_000).toISOString().slice(0, 10)
      : new Date(dayOf(c) + bound.seconds * 1000).toISOString();

const dirs = tempDir('chatgraph-usage-grain-');
let runs = 0;

/** The report of a case, summed in SQL and quarter hour by quarter hour: the same. */
async function check(c: Case): Promise<void> {
  const store = SqliteStore.open(join(dirs, `store-${String(runs++)}.sqlite`));
  try {
    await store.setDeep(true);
    await store.upsert(batchesOf(c));
    const query = {
      by: c.by,
      breakdown: c.breakdown,
      timeZone: c.zoned[0],
      prices: PRICES,
      source: c.source,
      project: c.project,
      since: boundText(c, c.bounds[0]),
      until: boundText(c, c.bounds[1]),
    };
    const report = await usageReport(store.usage, query);
    const zone = zoneFormat(c.zoned[0]);
    const now = new Date();
    const filter: UsageFilter = {
      source: c.source,
      project: c.project,
      since: query.since === undefined ? undefined : boundOf(query.since, '', zone, now),
      until: query.until === undefined ? undefined : boundOf(query.until, '', zone, now),
    };
    const totals = await store.usage.tokenTotals(filter);
    const uncounted = await store.usage.uncounted(filter);
    expect(report).toEqual(summarizeUsage(totals, uncounted, query));
    // Priced per quarter hour as before, the total costs the same to the millionth.
    let cost = 0;
    let priced = false;
    for (const slot of totals.slots) {
      const price = priceOf(PRICES, slot.model);
      const tier = slot.long && price?.long ? price.long : price;
      const read = slot.cacheRead > 0 ? tier?.cache_read : 0;
      const write = slot.cacheCreation > 0 ? tier?.cache_write : 0;
      if (tier === undefined || read === undefined || write === undefined) continue;
      priced = true;
      cost +=
        (slot.input * tier.input +
          slot.output * tier.output +
          slot.cacheRead * read +
          slot.cacheCreation * write) /
        1e6;
    }
    if (priced) expect(report.total.cost_usd).toBeCloseTo(cost, 5);
    else expect(report.total.cost_usd).toBeNull();
    // Each quarter hour in one row: the rows add up to the total.
    expect(report.rows.reduce((sum, row) => sum + row.total_tokens, 0)).toBe(
      report.total.total_tokens,
    );
  } finally {
    await store.close();
  }
}

/** A session of one message with a long prompt, at seconds from the change's UTC midnight. */
const one = (at: number) => ({
  source: 'claude-code' as const,
  project: null,
  title: 'one' as const,
  started: 0,
  messages: [
    {
      at,
      model: 'claude-sonnet-4-5',
      input: undefined,
      output: undefined,
      cacheRead: LONG_PROMPT_TOKENS,
      cacheCreation: undefined,
      reasoning: undefined,
      response: undefined,
    },
  ],
});

describe('a usage report summed in SQL to its grain', () => {
  it('equals the one summed quarter hour by quarter hour, in any zone and grouping', async () => {
    await fc.assert(fc.asyncProperty(Case, check), { numRuns: 80 });
  });

  // Cases the property found against mistakes made on purpose (kept: a random run may miss them).
  it.each([
    // A quarter hour cut by --since, in Adelaide after its change.
    [ZONED[2], one(222_301), [{ seconds: 222_301 }, undefined]],
    // A quarter hour cut by --until, in Kolkata.
    [ZONED[4], one(24_298), [undefined, { seconds: 24_299 }]],
    // Adelaide's last stretch, a day after its change, near its local midnight.
    [ZONED[3], one(135_000), [undefined, undefined]],
  ] as const)('and on the case found in %s', async (zoned, session, bounds) => {
    await check({
      zoned,
      sessions: [session, one(48_600)],
      by: 'day',
      breakdown: false,
      bounds: [...bounds],
      source: undefined,
      project: undefined,
    });
  });
});
