import type {
  SampleConversation,
  SampleFile,
  SampleReply,
  SampleStep,
  SampleTurn,
} from './conversations/sample-chat.js';
import { replyOf, SamplePace, uuidMaker } from './sample-pace.js';

type Json = Record<string, unknown>;

// Claude.ai marks a conversation's first message with this parent.
const ROOT = '00000000-0000-4000-8000-000000000000';

/** One conversation's messages while they are written. */
interface Chat {
  pace: SamplePace;
  uuid: () => string;
  messages: Json[];
}

// Claude.ai prints microseconds: `2025-03-01T10:00:00.000000Z`.
function iso(at: number): string {
  return new Date(at).toISOString().replace('Z', '000Z');
}

/** Builds a Claude.ai conversation from a written one: content blocks, branches by parent. */
export function claudeRecord(sample: SampleConversation, accountId: string): Json {
  const uuid = uuidMaker(`claude:${sample.slug}`);
  const chat: Chat = { pace: new SamplePace(sample.start), uuid, messages: [] };
  const id = uuid();
  const created = iso(chat.pace.now);
  let parent = ROOT;
  for (const turn of sample.turns) parent = addTurn(chat, parent, turn);
  return {
    uuid: id,
    name: sample.title,
    summary: '',
    created_at: created,
    updated_at: iso(chat.pace.now),
    account: { uuid: accountId },
    chat_messages: chat.messages,
  };
}

/** The question (and an edited or retried side branch), then the answer: the new parent. */
function addTurn(chat: Chat, parent: string, turn: SampleTurn): string {
  const { pace } = chat;
  if (turn.later !== undefined) pace.reading('', turn.later);
  if (turn.before?.user !== undefined) {
    pace.typing(turn.before.user);
    const first = human(chat, parent, turn.before.user, []);
    const answer = replyOf(turn.before.reply);
    assistant(chat, first, answer);
    pace.reading(answer.text);
  }
  pace.typing(turn.user);
  const user = human(chat, parent, turn.user, turn.files ?? []);
  if (turn.before !== undefined && turn.before.user === undefined) {
    const first = replyOf(turn.before.reply);
    assistant(chat, user, first);
    pace.reading(first.text.slice(0, 200));
  }
  const reply = replyOf(turn.reply);
  const shown = assistant(chat, user, reply);
  pace.reading(reply.text);
  return shown;
}

function human(chat: Chat, parent: string, text: string, files: readonly SampleFile[]): string {
  const id = chat.uuid();
  const at = iso(chat.pace.now);
  chat.messages.push({
    uuid: id,
    text,
    content: [{ type: 'text', text, start_timestamp: at, stop_timestamp: at, citations: [] }],
    sender: 'human',
    created_at: at,
    updated_at: at,
    attachments: files.map((file) => ({
      file_name: file.name,
      file_size: Buffer.byteLength(file.text ?? ''),
      file_type: file.name.endsWith('.md') ? 'text/markdown' : 'txt',
      extracted_content: file.text ?? '',
    })),
    files: [],
    parent_message_uuid: parent,
  });
  return id;
}

function assistant(chat: Chat, parent: string, reply: SampleReply): string {
  const { pace } = chat;
  const start = iso(pace.pause(1));
  const blocks = (reply.steps ?? []).flatMap((step) => stepBlocks(chat, step));
  pace.writing(reply.text);
  blocks.push({
    type: 'text',
    text: reply.text,
    start_timestamp: start,
    stop_timestamp: iso(pace.now),
    citations: (reply.cites ?? []).map((source) => ({
      uuid: chat.uuid(),
      start_index: 0,
      end_index: reply.text.length,
      details: { type: 'web_search_citation', url: source.url },
    })),
  });
  const id = chat.uuid();
  chat.messages.push({
    uuid: id,
    text: '',
    content: blocks,
    sender: 'assistant',
    created_at: start,
    updated_at: iso(pace.now),
    attachments: [],
    files: [],
    parent_message_uuid: parent,
  });
  return id;
}

function stepBlocks(chat: Chat, step: SampleStep): Json[] {
  const { pace } = chat;
  const start = iso(pace.now);
  if ('thinking' in step) {
    pace.pause(step.seconds);
    return [
      {
        type: 'thinking',
        thinking: step.thinking,
        summaries: [{ summary: 'Thought process' }],
        cut_off: false,
        start_timestamp: start,
        stop_timestamp: iso(pace.now),
      },
    ];
  }
  const id = `toolu_${chat.uuid().replace(/-/g, '').slice(0, 24)}`;
  pace.pause(3);
  if ('search' in step) {
    return [
      {
        type: 'tool_use',
        id,
        name: 'web_search',
        input: { query: step.search },
        start_timestamp: start,
      },
      {
        type: 'tool_result',
        tool_use_id: id,
        name: 'web_search',
        content: step.results.map((r) => ({
          type: 'knowledge',
          title: r.title,
          url: r.url,
          text: r.quote,
          metadata: { type: 'webpage_metadata', site_domain: new URL(r.url).hostname },
        })),
        is_error: false,
      },
    ];
  }
  const name = 'run' in step ? 'repl' : step.tool;
  const input = 'run' in step ? { code: step.run } : step.input;
  return [
    { type: 'tool_use', id, name, input, start_timestamp: start },
    {
      type: 'tool_result',
      tool_use_id: id,
      name,
      content: [{ type: 'text', text: step.output }],
      is_error: false,
    },
  ];
}
