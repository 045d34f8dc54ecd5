import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { answer, pickTopic, prompt } from './prose.js';
import { Random } from './random.js';

const TOOLS = ['Read', 'Edit', 'Bash', 'Grep', 'Write'];

/** Appends one entry to a session: a fresh uuid, a later time, chained to the entry before. */
type Push = (entry: Record<string, unknown>) => string;

/** The models a session with usage is run on (one per session), as Claude Code names them. */
const MODELS = [
  'claude-opus-4-5-20251101',
  'claude-sonnet-4-5-20250929',
  'claude-haiku-4-5-20251001',
];

/**
 * One API response's lines: its model, the request id on each line and the usage each line's
 * message repeats (a thinking line carries a partial output count, the text and tool-use lines
 * the final one), or none without usage.
 */
interface Response {
  model: string;
  line: Record<string, unknown>;
  message: (final: boolean) => Record<string, unknown>;
}

/**
 * Writes a `~/.claude/projects`-shaped folder of generated Claude Code sessions: replies split
 * over lines, tool calls with results, meta entries, titles (for the benchmark and tests).
 */
export async function writeClaudeCodeProjects(
  dir: string,
  options: {
    seed: number;
    sessions: number;
    /** Token usage on every assistant line, a request id, and a model picked per session. */
    usage?: boolean;
  },
): Promise<void> {
  const random = new Random(options.seed);
  for (let s = 0; s < options.sessions; s++) {
    const projectPath = `/home/dev/${random.pick(['api', 'web', 'infra', 'ml', 'docs'])}-${s % 40}`;
    const folder = join(dir, projectPath.replace(/[/.]/g, '-'));
    await mkdir(folder, { recursive: true });
    const session = random.uuid();
    const topic = pickTopic(random);
    let time = Date.UTC(2026, 0, 1) + s * 3_600_000;
    let parent: string | null = null;
    const lines: string[] = [];
    const base = {
      sessionId: session,
      cwd: projectPath,
      gitBranch: random.pick(['main', 'dev', 'feature/x']),
      version: '2.1.71',
      userType: 'external',
    };
    const push: Push = (entry) => {
      const uuid = random.uuid();
      time += random.int(1_000, 60_000);
      lines.push(
        JSON.stringify({
          ...base,
          ...entry,
          uuid,
          parentUuid: parent,
          timestamp: new Date(time).toISOString(),
        }),
      );
      parent = uuid;
      return uuid;
    };
    const model = options.usage === true ? random.pick(MODELS) : 'claude-opus-4-6';
    const turns = random.int(3, 20);
    for (let t = 0; t < turns; t++)
      pushTurn(push, random, topic, projectPath, responseOf(random, model, options.usage === true));
    lines.push(
      JSON.stringify({
        type: 'ai-title',
        sessionId: session,
        aiTitle: `${topic[0] ?? 'work'}: ${topic[1] ?? ''}`,
      }),
    );
    await writeFile(join(folder, `${session}.jsonl`), `${lines.join('\n')}\n`);
  }
}

/** A response's model and, with usage, the counts its lines carry. */
function responseOf(random: Random, model: string, usage: boolean): Response {
  if (!usage) return { model, line: {}, message: () => ({}) };
  const requestId = `req_${random.uuid().replace(/-/g, '')}`;
  const input = random.int(1, 40);
  const cacheCreation = random.int(0, 4_000);
  const cacheRead = random.int(5_000, 120_000);
  const output = random.int(20, 2_000);
  return {
    model,
    line: { requestId },
    message: (final) => ({
      usage: {
        input_tokens: input,
        cache_creation_input_tokens: cacheCreation,
        cache_read_input_tokens: cacheRead,
        output_tokens: final ? output : random.int(1, 10),
        service_tier: 'standard',
      },
    }),
  };
}

/** One turn: a prompt, a reply (thinking and text on separate lines), tool calls, a reminder. */
function pushTurn(
  push: Push,
  random: Random,
  topic: readonly string[],
  projectPath: string,
  response: Response,
): void {
  push({ type: 'user', message: { role: 'user', content: prompt(random, topic) } });
  const messageId = `msg_${random.uuid()}`;
  const { model } = response;
  if (random.chance(0.3))
    push({
      type: 'assistant',
      message: {
        id: messageId,
        role: 'assistant',
        model,
        content: [{ type: 'thinking', thinking: answer(random, topic, 1) }],
        ...response.message(false),
      },
      ...response.line,
    });
  push({
    type: 'assistant',
    message: {
      id: messageId,
      role: 'assistant',
      model,
      content: [{ type: 'text', text: answer(random, topic, random.int(1, 3)) }],
      ...response.message(true),
    },
    ...response.line,
  });
  const calls = random.int(0, 3);
  for (let c = 0; c < calls; c++)
    pushToolCall(push, random, topic, projectPath, messageId, response);
  if (random.chance(0.1))
    push({
      type: 'user',
      isMeta: true,
      message: { role: 'user', content: '<system-reminder>context</system-reminder>' },
    });
}

/** A tool call, a line of the same assistant message, and the user entry holding its result. */
function pushToolCall(
  push: Push,
  random: Random,
  topic: readonly string[],
  projectPath: string,
  messageId: string,
  response: Response,
): void {
  const id = `toolu_${random.uuid()}`;
  const name = random.pick(TOOLS);
  const file = `${projectPath}/src/${random.pick(['index', 'app', 'db', 'util'])}.ts`;
  push({
    type: 'assistant',
    message: {
      id: messageId,
      role: 'assistant',
      model: response.model,
      content: [
        {
          type: 'tool_use',
          id,
          name,
          input: name === 'Bash' ? { command: 'npm test' } : { file_path: file },
        },
      ],
      ...response.message(true),
    },
    ...response.line,
  });
  push({
    type: 'user',
    toolUseResult: { type: 'text' },
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content: answer(random, topic, 1) }],
    },
  });
}
