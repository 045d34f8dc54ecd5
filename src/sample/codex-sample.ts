import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { answer, pickTopic, prompt } from './prose.js';
import { Random } from './random.js';

const MODELS = ['gpt-5.1-codex', 'gpt-5.1-codex-mini', 'gpt-5-codex'];

/**
 * Writes a `~/.codex/sessions`-shaped folder of generated Codex CLI rollouts
 * (`YYYY/MM/DD/rollout-….jsonl`): a turn per prompt, each with its model in `turn_context`, the
 * reply as a response item and its `token_count` event (last and running totals), for the usage
 * benchmark.
 */
export async function writeCodexSessions(
  dir: string,
  options: { seed: number; sessions: number },
): Promise<void> {
  const random = new Random(options.seed);
  for (let s = 0; s < options.sessions; s++) {
    // Sessions every 100 minutes from the first of November 2025: days and hours spread.
    let time = Date.UTC(2025, 10, 1) + s * 6_000_000;
    const session = random.uuid();
    const started = new Date(time).toISOString();
    const folder = join(dir, started.slice(0, 4), started.slice(5, 7), started.slice(8, 10));
    await mkdir(folder, { recursive: true });
    const cwd = `/home/dev/${random.pick(['api', 'web', 'infra', 'ml', 'docs'])}-${s % 30}`;
    const topic = pickTopic(random);
    const model = random.pick(MODELS);
    const lines: string[] = [];
    const event = (type: string, payload: Record<string, unknown>, at = time): void => {
      lines.push(JSON.stringify({ timestamp: new Date(at).toISOString(), type, payload }));
    };
    event('session_meta', {
      id: session,
      timestamp: started,
      cwd,
      originator: 'codex_cli_rs',
      cli_version: '0.58.0',
      source: 'cli',
      model_provider: 'openai',
      git: { branch: 'main' },
    });
    const total = { input: 0, cached: 0, output: 0, reasoning: 0 };
    const turns = random.int(3, 25);
    for (let t = 0; t < turns; t++) {
      time += random.int(10_000, 120_000);
      time = writeTurn(event, random, { cwd, model, topic, total }, time);
    }
    const name = `rollout-${started.slice(0, 19).replace(/:/g, '-')}-${session}.jsonl`;
    await writeFile(join(folder, name), `${lines.join('\n')}\n`);
  }
}

/** A turn's lines: its context and model, the prompt, the reply and its token counts. */
function writeTurn(
  event: (type: string, payload: Record<string, unknown>, time: number) => void,
  random: Random,
  session: {
    cwd: string;
    model: string;
    topic: readonly string[];
    total: { input: number; cached: number; output: number; reasoning: number };
  },
  at: number,
): number {
  let time = at;
  const { cwd, model, topic, total } = session;
  const emit = (type: string, payload: Record<string, unknown>): void => {
    event(type, payload, time);
  };
  const turn = random.uuid();
  emit('turn_context', { turn_id: turn, cwd, model, approval_policy: 'on-request' });
  emit('event_msg', { type: 'task_started', turn_id: turn });
  const text = prompt(random, topic);
  emit('response_item', {
    type: 'message',
    role: 'user',
    content: [{ type: 'input_text', text }],
  });
  emit('event_msg', { type: 'user_message', message: text, images: [] });
  time += random.int(2_000, 60_000);
  const reply = answer(random, topic, random.int(1, 2));
  emit('response_item', {
    type: 'message',
    role: 'assistant',
    id: `msg_${random.uuid()}`,
    content: [{ type: 'output_text', text: reply }],
  });
  emit('event_msg', { type: 'agent_message', message: reply });
  const input = random.int(3_000, 60_000);
  const last = {
    input_tokens: input,
    cached_input_tokens: Math.min(input, random.int(0, 50_000)),
    output_tokens: random.int(50, 3_000),
    reasoning_output_tokens: random.int(0, 1_000),
  };
  total.input += last.input_tokens;
  total.cached += last.cached_input_tokens;
  total.output += last.output_tokens;
  total.reasoning += last.reasoning_output_tokens;
  emit('event_msg', {
    type: 'token_count',
    info: {
      total_token_usage: {
        input_tokens: total.input,
        cached_input_tokens: total.cached,
        output_tokens: total.output,
        reasoning_output_tokens: total.reasoning,
        total_tokens: total.input + total.output,
      },
      last_token_usage: { ...last, total_tokens: last.input_tokens + last.output_tokens },
      model_context_window: 272_000,
    },
  });
  return time;
}
