import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { answer, pickTopic, prompt } from './prose.js';
import { Random } from './random.js';

const TOOLS = ['Read', 'Edit', 'Bash', 'Grep', 'Write'];

/** Appends one entry to a session: a fresh uuid, a later time, chained to the entry before. */
type Push = (entry: Record<string, unknown>) => string;

/**
 * Writes a `~/.claude/projects`-shaped folder of generated Claude Code sessions: replies split
 * over lines, tool calls with results, meta entries, titles (for the benchmark and tests).
 */
export async function writeClaudeCodeProjects(
  dir: string,
  options: { seed: number; sessions: number },
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
    const turns = random.int(3, 20);
    for (let t = 0; t < turns; t++) pushTurn(push, random, topic, projectPath);
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

/** One turn: a prompt, a reply (thinking and text on separate lines), tool calls, a reminder. */
function pushTurn(push: Push, random: Random, topic: readonly string[], projectPath: string): void {
  push({ type: 'user', message: { role: 'user', content: prompt(random, topic) } });
  const messageId = `msg_${random.uuid()}`;
  const model = 'claude-opus-4-6';
  if (random.chance(0.3))
    push({
      type: 'assistant',
      message: {
        id: messageId,
        role: 'assistant',
        model,
        content: [{ type: 'thinking', thinking: answer(random, topic, 1) }],
      },
    });
  push({
    type: 'assistant',
    message: {
      id: messageId,
      role: 'assistant',
      model,
      content: [{ type: 'text', text: answer(random, topic, random.int(1, 3)) }],
    },
  });
  const calls = random.int(0, 3);
  for (let c = 0; c < calls; c++) pushToolCall(push, random, topic, projectPath, messageId);
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
): void {
  const id = `toolu_${random.uuid()}`;
  const name = random.pick(TOOLS);
  const file = `${projectPath}/src/${random.pick(['index', 'app', 'db', 'util'])}.ts`;
  push({
    type: 'assistant',
    message: {
      id: messageId,
      role: 'assistant',
      model: 'claude-opus-4-6',
      content: [
        {
          type: 'tool_use',
          id,
          name,
          input: name === 'Bash' ? { command: 'npm test' } : { file_path: file },
        },
      ],
    },
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
