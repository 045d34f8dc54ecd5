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

function makeConversation(random: Random, n: number, accountId: string): Json {
  const topic = pickTopic(random);
  let time = START + n * 7_200_000 + random.int(0, 600_000);
  const iso = (): string => new Date(time).toISOString().replace('Z', '000Z');
  const created = iso();
  const messages: Json[] = [];
  let parent = ROOT;
  const turns = random.int(1, 10);
  for (let turn = 0; turn < turns; turn++) {
    time += random.int(5_000, 120_000);
    const userId = random.uuid();
    const human: Json = {
      uuid: userId,
      text: '',
      content: [
        {
          type: 'text',
          text: prompt(random, topic),
          start_timestamp: iso(),
          stop_timestamp: iso(),
          citations: [],
        },
      ],
      sender: 'human',
      created_at: iso(),
      updated_at: iso(),
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
    messages.push(human);
    const reply = (): Json => {
      time += random.int(2_000, 30_000);
      const blocks: Json[] = [];
      if (random.chance(0.3)) {
        blocks.push({
          type: 'thinking',
          thinking: answer(random, topic, 1),
          summaries: [{ summary: 'Thinking it through' }],
          cut_off: false,
          start_timestamp: iso(),
          stop_timestamp: iso(),
        });
      }
      if (random.chance(0.2)) {
        const a = random.uuid();
        const b = random.uuid();
        blocks.push({
          type: 'tool_use',
          id: a,
          name: 'web_search',
          input: { query: topic[1] ?? '' },
          start_timestamp: iso(),
        });
        blocks.push({
          type: 'tool_use',
          id: b,
          name: 'web_fetch',
          input: { url: 'https://example.org/docs' },
          start_timestamp: iso(),
        });
        blocks.push({
          type: 'tool_result',
          tool_use_id: b,
          name: 'web_fetch',
          content: [{ type: 'text', text: sentence(random, topic) }],
          is_error: false,
        });
        blocks.push({
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
        });
      }
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
        created_at: iso(),
        updated_at: iso(),
        attachments: [],
        files: [],
        parent_message_uuid: userId,
      };
    };
    const first = reply();
    messages.push(first);
    parent = first.uuid as string;
    if (random.chance(0.1)) {
      // A retried answer: a second child of the same prompt, shown as the current leaf.
      const retry = reply();
      messages.push(retry);
      parent = retry.uuid as string;
    }
  }
  return {
    uuid: random.uuid(),
    name: random.chance(0.95) ? `${topic[0] ?? ''} and ${topic[2] ?? ''}` : '',
    summary: '',
    created_at: created,
    updated_at: iso(),
    account: { uuid: accountId },
    chat_messages: messages,
  };
}
