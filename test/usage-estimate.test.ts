// `chatgraph usage --estimate`: a ChatGPT export has no token counts; without `--estimate` the
// report says so and guesses nothing, with it the export's text is estimated at the documented
// characters per token (src/usage/estimate.ts), in rows of their own, marked, outside the total.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { memoryIo } from '../src/cli/cli-io.js';
import { runCli } from '../src/cli/run-cli.js';
import { SHIPPED_PRICES, priceOf } from '../src/usage/prices.js';
import { tempDir } from './support/convert-to-temp.js';
import { ROOT } from './support/shared.js';

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
  estimated: z.literal(true).optional(),
});
const Report = z.object({
  rows: z.array(Row),
  total: Row.omit({ period: true, model: true, source: true }),
  estimated: z
    .object({
      total: Row.omit({ period: true, model: true, source: true }),
      sources: z.array(z.object({ source: z.string(), conversations: z.number() })),
      method: z.string(),
    })
    .optional(),
});

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIo();
  const code = await runCli(['node', 'chatgraph', ...args], io);
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

const at = (iso: string): number => Date.parse(iso) / 1000;

/** A ChatGPT conversation of known text: every message's characters counted by hand below. */
function chatgptExport(): unknown[] {
  const turns: [string, 'user' | 'assistant', string, string | null][] = [
    // 29 characters of Latin script: 29 / 4 = 7.25, 8 tokens.
    ['n1', 'user', 'What should I pack for Kyoto?', null],
    // 38 characters of Latin script: 9.5, 10 tokens.
    ['n2', 'assistant', 'Layers, an umbrella and walking shoes.', 'gpt-4o'],
    // 5 Han and Hiragana characters, a token each: 5 tokens.
    ['n3', 'user', '京都の天気', null],
    // 9 Cyrillic letters (4.5) and a space (0.25): 4.75, 5 tokens.
    ['n4', 'assistant', 'Привет мир', 'gpt-4o'],
    // 7 characters (1.75), 2 tokens; no reply follows, so no model.
    ['n5', 'user', 'Thanks!', null],
  ];
  const mapping: Record<string, unknown> = {
    root: { id: 'root', message: null, parent: null, children: ['n1'] },
  };
  turns.forEach(([id, role, text, model], i) => {
    mapping[id] = {
      id,
      message: {
        id,
        author: { role, name: null, metadata: {} },
        create_time: at(`2026-03-02T10:0${String(i)}:00Z`),
        update_time: null,
        content: { content_type: 'text', parts: [text] },
        status: 'finished_successfully',
        end_turn: role === 'assistant' ? true : null,
        weight: 1,
        metadata: model === null ? {} : { model_slug: model },
        recipient: 'all',
      },
      parent: i === 0 ? 'root' : turns[i - 1]?.[0],
      children: i + 1 < turns.length ? [turns[i + 1]?.[0]] : [],
    };
  });
  return [
    {
      title: 'Packing for Kyoto',
      create_time: at('2026-03-02T10:00:00Z'),
      update_time: at('2026-03-02T10:04:00Z'),
      mapping,
      current_node: 'n5',
      conversation_id: 'c0ffee00-0000-4000-8000-000000000045',
      id: 'c0ffee00-0000-4000-8000-000000000045',
      default_model_slug: 'gpt-4o',
    },
  ];
}

let data: string;

beforeAll(async () => {
  process.env.TZ = 'UTC';
  const dir = tempDir();
  data = join(dir, 'data');
  const file = join(dir, 'conversations.json');
  writeFileSync(file, JSON.stringify(chatgptExport()));
  const counted = join(ROOT, 'test', 'fixtures', 'claude-code', 'notes-second-session.jsonl');
  const imported = await cli('import', '-q', '--data-dir', data, file, counted);
  expect(imported.err).toBe('');
  expect(imported.code).toBe(0);
}, 60_000);

describe('chatgraph usage --estimate', () => {
  it('says a ChatGPT export has no token counts, and guesses nothing, without --estimate', async () => {
    const { code, out } = await cli('usage', '--data-dir', data);
    expect(code).toBe(0);
    expect(out).toMatch(
      /No token counts in chatgpt \(1 of 1 conversation\): not counted, never guessed/,
    );
    expect(out).not.toContain('~');
    const json = Report.parse(JSON.parse((await cli('usage', '--data-dir', data, '--json')).out));
    expect(json.rows.filter((r) => r.source === 'chatgpt' || r.estimated)).toEqual([]);
    expect(json.estimated).toBeUndefined();
  });

  it('estimates the export from its text at the documented ratios, in rows of their own', async () => {
    const args = ['usage', '--data-dir', data, '--by', 'day', '--breakdown', '--json'];
    const plain = Report.parse(JSON.parse((await cli(...args)).out));
    const { out, code } = await cli(...args, '--estimate');
    expect(code).toBe(0);
    const report = Report.parse(JSON.parse(out));
    const estimated = report.rows.filter((r) => r.estimated === true);
    const price = priceOf(SHIPPED_PRICES, 'gpt-4o');
    if (price === undefined) throw new Error('the shipped prices have gpt-4o');
    // The shipped gpt-4o price: $2.50 input and $10 output a million tokens.
    expect(price).toMatchObject({ input: 2.5, output: 10 });
    // The last prompt (2 tokens) has no reply after it: no model, no price. gpt-4o: input
    // 8 + 5 tokens, output 10 + 5; 13 × 2.5 + 15 × 10 = 182.5 millionths of a dollar, reported to
    // the millionth.
    expect(estimated).toEqual([
      expect.objectContaining({ model: null, input_tokens: 2, output_tokens: 0, cost_usd: null }),
      {
        period: '2026-03-02',
        model: 'gpt-4o',
        source: 'chatgpt',
        input_tokens: 13,
        output_tokens: 15,
        cache_creation_tokens: 0,
        cache_read_tokens: 0,
        reasoning_tokens: 0,
        total_tokens: 28,
        cost_usd: 0.000183,
        unpriced_models: [],
        estimated: true,
      },
    ]);
    // The counted rows and their total are the same with an estimate as without one.
    expect(report.rows.filter((r) => r.estimated !== true)).toEqual(plain.rows);
    expect(report.total).toEqual(plain.total);
    expect(report.estimated?.total).toMatchObject({ input_tokens: 15, output_tokens: 15 });
    expect(report.estimated?.sources).toEqual([{ source: 'chatgpt', conversations: 1 }]);
  });

  it('marks estimated rows in the table and says how they were estimated', async () => {
    const { out } = await cli('usage', '--data-dir', data, '--by', 'day', '--estimate');
    expect(out).toMatch(/^2026-03-02 ~ /m);
    expect(out).toMatch(/^estimated total ~ /m);
    expect(out).toContain('~ Estimated rows: estimated from text length, not counted');
    expect(out).toMatch(/estimated in the rows marked\s+~/);
    for (const line of out.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
  });
});
