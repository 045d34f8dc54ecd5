import { answer, pickTopic, prompt, sentence } from './prose.js';
import { Random } from './random.js';

type Json = Record<string, unknown>;

const ROOT = '00000000-0000-4000-8000-000000000000';
const START = Date.UTC(2025, 2, 1);

/** Generates Claude.ai conversations shaped like a 2025–2026 export (content blocks, branches). */
export function* claudeConversations(options: {
  seed: number;
  conversations: number;
  accountId: string;
}): Generator<Json> {
  const random = new Random(options.seed);
  for (let n = 0; n < options.conversations; n++)
    yield makeConversation(random, n, options.accountId);
}

/** The clock of one conversation: advances as messages are written, printed as Claude does. */
interface Clock {
  time: number;
}

// Claude.ai prints microseconds: `2025-03-01T10:00:00.000000Z`.
function iso(clock: Clock): string {
  return new Date(clock.time).toISOString().replace('Z', '000Z');
}

function makeConversation(random: Random, n: number, accountId: string): Json {
  const topic = pickTopic(random);
  const clock: Clock = { time: START + n * 7_200_000 + random.int(0, 600_000) };
  const created = iso(clock);
  const messages: Json[] = [];
  let parent = ROOT;
  const turns = random.int(1, 10);
  for (let turn = 0; turn < turns; turn++) {
    clock.time += random.int(5_000, 120_000);
    const userId = random.uuid();
    messages.push(humanMessage(random, topic, clock, userId, parent));
    const first = assistantMessage(random, topic, clock, userId);
    messages.push(first);
    parent = first.uuid as string;
    if (random.chance(0.1)) {
      // A retried answer: a second child of the same prompt, shown as the current leaf.
      const retry = assistantMessage(random, topic, clock, userId);
      messages.push(retry);
      parent = retry.uuid as string;
    }
  }
  return {
    uuid: random.uuid(),
    name: random.chance(0.95) ? `${topic[0] ?? ''} and ${topic[2] ?? ''}` : '',
    summary: '',
    created_at: created,
    updated_at: iso(clock),
    account: { uuid: accountId },
    chat_messages: messages,
  };
}

function humanMessage(
  random: Random,
  topic: readonly string[],
  clock: Clock,
  userId: string,
  parent: string,
): Json {
  return {
    uuid: userId,
    text: '',
    content: [
      {
        type: 'text',
        text: prompt(random, topic),
        start_timestamp: iso(clock),
        stop_timestamp: iso(clock),
        citations: [],
      },
    ],
    sender: 'human',
    created_at: iso(clock),
    updated_at: iso(clock),
    attachments: random.chance(0.1)
      ? [
          {
            file_name: 'notes.txt',
            file_size: 120,
            file_type: 'txt',
            extracted_content: sentence(random, topic),
          },
        ]
      : [],
    files: [],
    parent_message_uuid: parent,
  };
}

function assistantMessage(
  random: Random,
  topic: readonly string[],
  clock: Clock,
  userId: string,
): Json {
  clock.time += random.int(2_000, 30_000);
  const blocks: Json[] = [];
  if (random.chance(0.3)) {
    blocks.push({
      type: 'thinking',
      thinking: answer(random, topic, 1),
      summaries: [{ summary: 'Thinking it through' }],
      cut_off: false,
      start_timestamp: iso(clock),
      stop_timestamp: iso(clock),
    });
  }
  if (random.chance(0.2)) blocks.push(...webToolBlocks(random, topic, clock));
  blocks.push({
    type: 'text',
    text: answer(random, topic, random.int(1, 4)),
    citations: random.chance(0.2)
      ? [
          {
            uuid: random.uuid(),
            start_index: 0,
            end_index: 5,
            details: { type: 'web_search_citation', url: 'https://example.org/search' },
          },
        ]
      : [],
  });
  return {
    uuid: random.uuid(),
    text: '',
    content: blocks,
    sender: 'assistant',
    created_at: iso(clock),
    updated_at: iso(clock),
    attachments: [],
    files: [],
    parent_message_uuid: userId,
  };
}

/** A web search and a fetch, their results in the opposite order (as parallel calls return). */
function webToolBlocks(random: Random, topic: readonly string[], clock: Clock): Json[] {
  const a = random.uuid();
  const b = random.uuid();
  return [
    {
      type: 'tool_use',
      id: a,
      name: 'web_search',
      input: { query: topic[1] ?? '' },
      start_timestamp: iso(clock),
    },
    {
      type: 'tool_use',
      id: b,
      name: 'web_fetch',
      input: { url: 'https://example.org/docs' },
      start_timestamp: iso(clock),
    },
    {
      type: 'tool_result',
      tool_use_id: b,
      name: 'web_fetch',
      content: [{ type: 'text', text: sentence(random, topic) }],
      is_error: false,
    },
    {
      type: 'tool_result',
      tool_use_id: a,
      name: 'web_search',
      content: [
        {
          type: 'knowledge',
          title: `On ${topic[1] ?? ''}`,
          url: 'https://example.org/search',
          text: sentence(random, topic),
        },
      ],
      is_error: false,
    },
  ];
}
