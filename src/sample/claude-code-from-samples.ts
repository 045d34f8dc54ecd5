import type { ClaudeCodeSample, SampleReply, SampleStep } from './conversations/sample-chat.js';
import { replyOf, SamplePace, uuidMaker } from './sample-pace.js';

/** A session log: the folder Claude Code keeps it in (its encoded cwd) and its lines. */
export interface ClaudeCodeLog {
  folder: string;
  file: string;
  text: string;
}

/** What every line of one session shares while it is written. */
interface Session {
  sample: ClaudeCodeSample;
  pace: SamplePace;
  uuid: () => string;
  lines: string[];
  id: string;
}

/**
 * Builds a Claude Code session log from a written session: one line per content block (a reply
 * split over lines that share its message id), tool results on user lines, an `ai-title` last.
 */
export function claudeCodeLog(sample: ClaudeCodeSample): ClaudeCodeLog {
  const uuid = uuidMaker(`claude-code:${sample.slug}`);
  const session: Session = {
    sample,
    pace: new SamplePace(sample.start),
    uuid,
    lines: [],
    id: uuid(),
  };
  let parent: string | null = null;
  for (const turn of sample.turns) {
    if (turn.later !== undefined) session.pace.reading('', turn.later);
    if (turn.before !== undefined)
      throw new Error(`${sample.slug}: a session has no side branches here`);
    session.pace.typing(turn.user);
    const prompt = line(session, parent, 'user', { message: { role: 'user', content: turn.user } });
    const reply = replyOf(turn.reply);
    parent = addReply(session, prompt, reply);
    session.pace.reading(reply.text);
  }
  session.lines.push(
    JSON.stringify({ type: 'ai-title', sessionId: session.id, aiTitle: sample.title }),
  );
  return {
    folder: sample.cwd.replace(/[/.]/g, '-'),
    file: `${session.id}.jsonl`,
    text: `${session.lines.join('\n')}\n`,
  };
}

function line(
  session: Session,
  parent: string | null,
  type: 'user' | 'assistant',
  fields: Record<string, unknown>,
): string {
  const id = session.uuid();
  session.lines.push(
    JSON.stringify({
      parentUuid: parent,
      isSidechain: false,
      userType: 'external',
      cwd: session.sample.cwd,
      sessionId: session.id,
      version: session.sample.version,
      gitBranch: session.sample.branch,
      type,
      ...fields,
      uuid: id,
      timestamp: session.pace.iso(),
    }),
  );
  return id;
}

/** One API response's block on its own line, as Claude Code writes a streamed reply. */
function assistantLine(
  session: Session,
  parent: string,
  messageId: string,
  block: Record<string, unknown>,
  stop: string | null,
): string {
  return line(session, parent, 'assistant', {
    message: {
      id: messageId,
      type: 'message',
      role: 'assistant',
      model: session.sample.model,
      content: [block],
      stop_reason: stop,
      stop_sequence: null,
    },
    requestId: `req_${messageId.slice(4)}`,
  });
}

function messageId(session: Session): string {
  return `msg_${session.uuid().replace(/-/g, '').slice(0, 24)}`;
}

// Each tool result ends an API response; the assistant goes on in a new one.
function addReply(session: Session, prompt: string, reply: SampleReply): string {
  const { pace } = session;
  let parent = prompt;
  let response = messageId(session);
  for (const step of reply.steps ?? []) {
    if ('thinking' in step) {
      pace.pause(step.seconds);
      parent = assistantLine(
        session,
        parent,
        response,
        { type: 'thinking', thinking: step.thinking, signature: '' },
        null,
      );
      continue;
    }
    const { name, input, output } = toolOf(step);
    const id = `toolu_${session.uuid().replace(/-/g, '').slice(0, 24)}`;
    pace.writing(JSON.stringify(input));
    parent = assistantLine(
      session,
      parent,
      response,
      { type: 'tool_use', id, name, input },
      'tool_use',
    );
    pace.pause(2);
    parent = line(session, parent, 'user', {
      message: {
        role: 'user',
        content: [{ tool_use_id: id, type: 'tool_result', content: output }],
      },
      toolUseResult:
        name === 'Bash'
          ? { stdout: output, stderr: '', interrupted: false, isImage: false }
          : { type: 'text', content: output },
    });
    response = messageId(session);
  }
  pace.writing(reply.text);
  return assistantLine(session, parent, response, { type: 'text', text: reply.text }, 'end_turn');
}

function toolOf(step: Exclude<SampleStep, { thinking: string }>): {
  name: string;
  input: Record<string, unknown>;
  output: string;
} {
  if ('run' in step) return { name: 'Bash', input: { command: step.run }, output: step.output };
  if ('search' in step) {
    const output = step.results.map((r) => `${r.title} (${r.url}): ${r.quote}`).join('\n');
    return { name: 'WebSearch', input: { query: step.search }, output };
  }
  return { name: step.tool, input: step.input, output: step.output };
}
