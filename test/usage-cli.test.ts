// `chatgraph usage` on the coding agents' fixtures: totals equal a count by hand from each
// fixture's own numbers, days fall in the time zone of TZ, a model without a price says so,
// and a chat export without token counts is named, not guessed.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { memoryIo } from '../src/cli/cli-io.js';
import { runCli } from '../src/cli/run-cli.js';
import { tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';
import { buildSqliteFixture } from './support/sqlite-fixtures.js';

const fixture = (...parts: string[]): string => join(ROOT, 'test', 'fixtures', ...parts);

const Row = z.object({
  period: z.string(),
  model: z.string().nullable(),
  source: z.string().nullable(),
  input_tokens: z.number(),
  output_tokens: z.number(),
  cache_creation_tokens: z.number(),
  cache_read_tokens: z.number(),
  reasoning_tokens: z.number(),
  total_tokens: z.number(),
  cost_usd: z.number().nullable(),
  unpriced_models: z.array(z.string()),
});
const Report = z.object({
  by: z.string(),
  timeZone: z.string(),
  rows: z.array(Row),
  total: Row.omit({ period: true, model: true, source: true }),
  uncounted: z.array(
    z.object({
      source: z.string(),
      conversations: z.number(),
      of: z.number(),
      models: z.array(z.object({ model: z.string(), messages: z.number() })),
    }),
  ),
  prices: z.object({ date: z.string(), source: z.string(), unpriced_models: z.array(z.string()) }),
});

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo();
  const code = await runCli(['node', 'chatgraph', ...args], io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

let data: string;
let config: string;
const saved = {
  TZ: process.env.TZ,
  XDG: process.env.XDG_CONFIG_HOME,
  CONF: process.env.CHATGRAPH_CONFIG,
};

async function report(...args: string[]): Promise<z.infer<typeof Report>> {
  const { code, out, err } = await cli('usage', '--data-dir', data, '--json', ...args);
  expect(err).toBe('');
  expect(code).toBe(0);
  return Report.parse(JSON.parse(out));
}

function bySource(rows: readonly z.infer<typeof Row>[], source: string): Record<string, number> {
  const mine = rows.filter((r) => r.source === source);
  const sum = (
    field:
      | 'input_tokens'
      | 'output_tokens'
      | 'cache_creation_tokens'
      | 'cache_read_tokens'
      | 'reasoning_tokens',
  ): number => mine.reduce((s, r) => s + r[field], 0);
  return {
    input: sum('input_tokens'),
    output: sum('output_tokens'),
    cacheCreation: sum('cache_creation_tokens'),
    cacheRead: sum('cache_read_tokens'),
    reasoning: sum('reasoning_tokens'),
  };
}

beforeAll(async () => {
  data = join(tempDir(), 'data');
  config = join(tempDir(), 'config');
  process.env.XDG_CONFIG_HOME = config;
  delete process.env.CHATGRAPH_CONFIG;
  const cursor = buildSqliteFixture(fixture('cursor', 'global-state.sql'));
  const imported = await cli(
    'import',
    '-q',
    '--data-dir',
    data,
    fixture('codex', 'rollout-2025-10-29T09-12-04-019a2f3d-1704-7a1b-8c1d-2e3f4a5b6c7d.jsonl'),
    fixture('gemini-cli', 'session-2025-09-18T08-30-7f3e2a91.json'),
    fixture('qwen-code', 'c41d2e7a-9b3f-4a6c-8e15-72f0a9d3b8c4.jsonl'),
    fixture('claude-code', 'notes-second-session.jsonl'),
    fixture('chatgpt', 'kitchen-forks.json'),
    cursor,
  );
  expect(imported.code).toBe(0);
}, 120_000);

afterAll(() => {
  const restore = (key: 'TZ' | 'XDG_CONFIG_HOME' | 'CHATGRAPH_CONFIG', value?: string): void => {
    if (value === undefined) Reflect.deleteProperty(process.env, key);
    else process.env[key] = value;
  };
  restore('TZ', saved.TZ);
  restore('XDG_CONFIG_HOME', saved.XDG);
  restore('CHATGRAPH_CONFIG', saved.CONF);
});

describe('chatgraph usage', () => {
  it('totals each agent as counted by hand from its fixture', async () => {
    process.env.TZ = 'UTC';
    const { rows } = await report('--by', 'day', '--breakdown');
    // Codex: last_token_usage of three calls, input less cached_input_tokens:
    // 9120-2048, 10680-6912, 11200-8040; output 412+118+110 (300 of it reasoning).
    expect(bySource(rows, 'codex')).toEqual({
      input: 7072 + 3768 + 3160,
      output: 412 + 118 + 110,
      cacheCreation: 0,
      cacheRead: 2048 + 6912 + 8040,
      reasoning: 300,
    });
    // Gemini CLI: input 640, output 38 with 52 thoughts (billed as output), total 730.
    expect(bySource(rows, 'gemini-cli')).toEqual({
      input: 640,
      output: 38 + 52,
      cacheCreation: 0,
      cacheRead: 0,
      reasoning: 52,
    });
    // Qwen Code: prompt less cached (6400-3200, 6600-6400, 6700-6600), output the total less
    // the prompt (6501-6400, 6648-6600, 6720-6700), thoughts 40.
    expect(bySource(rows, 'qwen-code')).toEqual({
      input: 3200 + 200 + 100,
      output: 101 + 48 + 20,
      cacheCreation: 0,
      cacheRead: 3200 + 6400 + 6600,
      reasoning: 40,
    });
    // Cursor: the two bubbles with a tokenCount that is not zero: 18234/912 and 19880/301.
    expect(bySource(rows, 'cursor')).toEqual({
      input: 18234 + 19880,
      output: 912 + 301,
      cacheCreation: 0,
      cacheRead: 0,
      reasoning: 0,
    });
    // Claude Code: one reply, 1200 in, 180 out, 9000 cache reads.
    expect(bySource(rows, 'claude-code')).toEqual({
      input: 1200,
      output: 180,
      cacheCreation: 0,
      cacheRead: 9000,
      reasoning: 0,
    });
    for (const row of rows)
      expect(row.total_tokens).toBe(
        row.input_tokens + row.output_tokens + row.cache_creation_tokens + row.cache_read_tokens,
      );
  });

  it('prices each call from the dated table, and says which models have no price', async () => {
    process.env.TZ = 'UTC';
    const { rows, prices } = await report('--by', 'day', '--breakdown');
    expect(prices.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const claude = rows.find((r) => r.source === 'claude-code');
    // Sonnet 4.5: $3 in, $15 out, $0.30 cache reads per million.
    expect(claude?.cost_usd).toBeCloseTo((1200 * 3 + 180 * 15 + 9000 * 0.3) / 1e6, 9);
    // gpt-5-codex and gpt-5.1-codex: $1.25 in, $10 out, $0.125 cache reads.
    const codex = rows.filter((r) => r.source === 'codex');
    const codexCost = codex.reduce((s, r) => s + (r.cost_usd ?? Number.NaN), 0);
    expect(codexCost).toBeCloseTo((14000 * 1.25 + 640 * 10 + 17000 * 0.125) / 1e6, 9);
    // Qwen's and Cursor's models are in no price table we ship: their cost is null.
    for (const row of rows.filter((r) => r.source === 'qwen-code' || r.source === 'cursor')) {
      expect(row.cost_usd).toBeNull();
      expect(row.unpriced_models).toEqual([row.model]);
    }
    expect(prices.unpriced_models).toEqual(['claude-4.5-sonnet-thinking', 'qwen3-coder-plus']);
  });

  it('takes prices from prices.json in the config folder, and names a bad one', async () => {
    mkdirSync(join(config, 'chatgraph'), { recursive: true });
    const file = join(config, 'chatgraph', 'prices.json');
    writeFileSync(
      file,
      JSON.stringify({
        date: '2026-12-01',
        source: 'my own',
        models: { 'qwen3-coder-plus': { input: 1, output: 5, cache_read: 0.1 } },
      }),
    );
    try {
      const { rows, prices } = await report('--source', 'qwen-code', '--by', 'model');
      expect(prices.date).toBe('2026-12-01');
      expect(rows[0]?.cost_usd).toBeCloseTo((3500 * 1 + 169 * 5 + 16200 * 0.1) / 1e6, 9);
      writeFileSync(file, JSON.stringify({ date: 'soon', source: 'x', models: {} }));
      const bad = await cli('usage', '--data-dir', data);
      expect(bad.code).toBe(2);
      expect(bad.err).toContain(file);
      expect(bad.err).toContain('date');
    } finally {
      writeFileSync(file, '{"date": "2026-12-01", "source": "none", "models": {}}');
    }
  });

  it('puts each call on its day in the time zone of TZ', async () => {
    // The Codex calls at 09:12 and 09:20 UTC on 29 October; in Pacific/Kiritimati (UTC+14)
    // that is 23:12 and 23:20; the Claude Code reply at 20:45 UTC on 5 October is on the 6th.
    process.env.TZ = 'Pacific/Kiritimati';
    const kiritimati = await report('--by', 'day', '--breakdown', '--source', 'claude-code');
    expect(kiritimati.timeZone).toBe('Pacific/Kiritimati');
    expect(kiritimati.rows.map((r) => r.period)).toEqual(['2025-10-06']);
    process.env.TZ = 'UTC';
    const utc = await report('--by', 'day', '--source', 'claude-code');
    expect(utc.rows.map((r) => r.period)).toEqual(['2025-10-05']);
    // A plain --since date is midnight there: the 6th in Kiritimati starts at 10:00 UTC the 5th.
    process.env.TZ = 'Pacific/Kiritimati';
    expect((await report('--source', 'claude-code', '--since', '2025-10-06')).rows).toHaveLength(1);
    expect((await report('--source', 'claude-code', '--since', '2025-10-07')).rows).toHaveLength(0);
    process.env.TZ = 'UTC';
  });

  it('names the sources that have no token counts, with their models', async () => {
    process.env.TZ = 'UTC';
    const { uncounted } = await report();
    const chatgpt = uncounted.find((u) => u.source === 'chatgpt');
    expect(chatgpt).toMatchObject({ conversations: 1, of: 1 });
    expect(chatgpt?.models.map((m) => m.model)).toContain('gpt-4o');
    const text = await cli('usage', '--data-dir', data);
    expect(text.out).toMatch(
      /No token counts in chatgpt \(1 of 1 conversation\): not counted, never guessed/,
    );
  });

  it('reads at 80 columns, by every grouping', async () => {
    process.env.TZ = 'UTC';
    for (const by of ['day', 'week', 'month', 'session', 'model', 'source', 'project']) {
      for (const breakdown of [[], ['--breakdown']]) {
        const { code, out } = await cli('usage', '--data-dir', data, '--by', by, ...breakdown);
        expect(code).toBe(0);
        for (const line of out.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
        expect(out).toMatch(/^total /m);
      }
    }
    const wrong = await cli('usage', '--data-dir', data, '--by', 'dya');
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain('day');
  });
});
