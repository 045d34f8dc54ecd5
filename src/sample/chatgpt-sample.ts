import { answer, pickTopic, prompt, sentence } from './prose.js';
import { Random } from './random.js';

/** What to generate. */
export interface ChatgptSampleOptions {
  seed: number;
  /** Stop after this many conversations... */
  conversations?: number;
  /** ...or once the conversations' JSON reaches this many bytes. */
  targetBytes?: number;
  /** ...or once this many messages are written. */
  targetMessages?: number;
  /** Give the first conversation this many turns (a long conversation, for thread timings). */
  longTurns?: number;
  /** Image asset pointers that name files shipped in the export. */
  assetIds?: readonly string[];
}

type Json = Record<string, unknown>;

const MODELS = ['gpt-4o', 'gpt-4o-mini', 'o3', 'gpt-5', 'gpt-4-1'];
const START = 1_700_000_000;

/**
 * Generates ChatGPT conversations shaped like a real export (`mapping` trees with hidden system
 * roots, regenerated answers and edited prompts, tool calls, reasoning, images, citations).
 */
export function* chatgptConversations(options: ChatgptSampleOptions): Generator<Json> {
  const random = new Random(options.seed);
  let bytes = 0;
  let messages = 0;
  for (let n = 0; ; n++) {
    if (options.conversations !== undefined && n >= options.conversations) return;
    if (options.targetBytes !== undefined && bytes >= options.targetBytes) return;
    if (options.targetMessages !== undefined && messages >= options.targetMessages) return;
    const turns = n === 0 && options.longTurns !== undefined ? options.longTurns : undefined;
    const conversation = makeConversation(random, n, options.assetIds ?? [], turns);
    bytes += JSON.stringify(conversation).length;
    messages += Object.keys(conversation.mapping as object).length - 1;
    yield conversation;
  }
}

function makeConversation(
  random: Random,
  n: number,
  assetIds: readonly string[],
  fixedTurns?: number,
): Json {
  const topic = pickTopic(random);
  const model = random.pick(MODELS);
  const id = random.uuid();
  let time = START + n * 3600 + random.int(0, 3000);
  const created = time;
  const mapping: Record<string, Json> = {};
  const rootId = random.chance(0.5) ? 'client-created-root' : random.uuid();
  mapping[rootId] = { id: rootId, message: null, parent: null, children: [] };

  const add = (parent: string, message: Json): string => {
    const key = message.id as string;
    mapping[key] = { id: key, message, parent, children: [] };
    (mapping[parent]?.children as string[]).push(key);
    return key;
  };
  const message = (role: string, content: Json, extra: Json = {}): Json => {
    time += random.int(2, 90) + random.next();
    return {
      id: random.uuid(),
      author: { role, name: extra.authorName ?? null, metadata: {} },
      create_time: role === 'system' ? null : time,
      update_time: null,
      content,
      status: 'finished_successfully',
      end_turn: role === 'assistant' ? true : null,
      weight: role === 'system' ? 0 : 1,
      metadata: extra.metadata ?? {},
      recipient: extra.recipient ?? 'all',
      channel: null,
    };
  };
  const text = (t: string): Json => ({ content_type: 'text', parts: [t] });

  let leaf = add(
    rootId,
    message('system', text(''), { metadata: { is_visually_hidden_from_conversation: true } }),
  );
  if (random.chance(0.2)) {
    leaf = add(
      leaf,
      message(
        'user',
        {
          content_type: 'user_editable_context',
          user_profile: `I work with ${topic[0] ?? 'software'} every day.`,
          user_instructions: 'Answer briefly and show code when it helps.',
        },
        { metadata: { is_visually_hidden_from_conversation: true, is_user_system_message: true } },
      ),
    );
  }
  const turns = fixedTurns ?? random.int(2, 24);
  for (let turn = 0; turn < turns; turn++) {
    const userContent =
      assetIds.length > 0 && random.chance(0.05)
        ? {
            content_type: 'multimodal_text',
            parts: [
              {
                content_type: 'image_asset_pointer',
                asset_pointer: `file-service://${random.pick(assetIds)}`,
                size_bytes: 68,
                width: 1,
                height: 1,
                fovea: null,
                metadata: null,
              },
              prompt(random, topic),
            ],
          }
        : text(prompt(random, topic));
    const requestId = random.uuid();
    let user = add(
      leaf,
      message('user', userContent, {
        metadata: { request_id: requestId, timestamp_: 'absolute', message_type: null },
      }),
    );
    if (random.chance(0.04)) {
      // An edited prompt: a sibling of the first version, which becomes the shown branch.
      const parent = mapping[user]?.parent as string;
      user = add(
        parent,
        message('user', text(prompt(random, topic)), {
          metadata: { request_id: random.uuid(), timestamp_: 'absolute' },
        }),
      );
    }
    let at = user;
    const assistantMeta = (): Json => ({
      model_slug: model,
      default_model_slug: model,
      finish_details: { type: 'stop', stop_tokens: [200002] },
      is_complete: true,
      request_id: requestId,
      timestamp_: 'absolute',
      message_type: null,
      parent_id: at,
    });
    if (random.chance(0.08)) {
      at = add(
        at,
        message(
          'assistant',
          {
            content_type: 'thoughts',
            thoughts: [
              {
                summary: 'Considering the options',
                content: answer(random, topic, 1),
                chunks: [],
                finished: true,
              },
            ],
            source_analysis_msg_id: random.uuid(),
          },
          { metadata: { ...assistantMeta(), reasoning_status: 'is_reasoning' } },
        ),
      );
      at = add(
        at,
        message(
          'assistant',
          { content_type: 'reasoning_recap', content: `Thought for ${random.int(3, 90)}s` },
          { metadata: { ...assistantMeta(), reasoning_status: 'reasoning_ended' } },
        ),
      );
    }
    if (random.chance(0.1)) {
      at = add(
        at,
        message(
          'assistant',
          {
            content_type: 'code',
            language: 'unknown',
            response_format_name: null,
            text: `import statistics\nprint(statistics.mean([${random.int(1, 9)}, ${random.int(1, 9)}, ${random.int(1, 9)}]))`,
          },
          { recipient: 'python', metadata: assistantMeta() },
        ),
      );
      at = add(
        at,
        message(
          'tool',
          { content_type: 'execution_output', text: String(random.int(1, 9)) },
          {
            authorName: 'python',
            metadata: { aggregate_result: { status: 'success', code: 'print(...)' } },
          },
        ),
      );
    }
    let citations: Json[] = [];
    if (random.chance(0.05)) {
      at = add(
        at,
        message(
          'assistant',
          { content_type: 'code', language: 'unknown', text: `search("${topic[1] ?? 'news'}")` },
          { recipient: 'browser', metadata: assistantMeta() },
        ),
      );
      const url = `https://example.org/${(topic[1] ?? 'page').replace(/ /g, '-')}`;
      at = add(
        at,
        message(
          'tool',
          {
            content_type: 'tether_browsing_display',
            result: `【0†${topic[1] ?? ''}†example.org】 ${sentence(random, topic)}`,
            summary: null,
            assets: [],
            tether_id: null,
          },
          { authorName: 'browser' },
        ),
      );
      citations = [
        {
          start_ix: 0,
          end_ix: 10,
          citation_format_type: 'tether_og',
          metadata: {
            type: 'webpage',
            title: `About ${topic[1] ?? ''}`,
            url,
            text: sentence(random, topic),
            extra: null,
          },
        },
      ];
    }
    const reply = add(
      at,
      message('assistant', text(answer(random, topic, random.int(1, 5))), {
        metadata: { ...assistantMeta(), citations },
      }),
    );
    leaf = reply;
    if (random.chance(0.08)) {
      // A regenerated answer: a sibling under the same parent, shown instead of the first.
      leaf = add(
        at,
        message('assistant', text(answer(random, topic, random.int(1, 4))), {
          metadata: assistantMeta(),
        }),
      );
    }
  }
  return {
    title: random.chance(0.97)
      ? `${topic[0] ?? 'Chat'}: ${topic[random.int(1, topic.length - 1)] ?? ''}`
      : null,
    create_time: created,
    update_time: time,
    mapping,
    moderation_results: [],
    current_node: leaf,
    plugin_ids: null,
    conversation_id: id,
    conversation_template_id: null,
    gizmo_id: null,
    gizmo_type: null,
    is_archived: random.chance(0.05),
    is_starred: null,
    safe_urls: [],
    blocked_urls: [],
    default_model_slug: model,
    conversation_origin: null,
    voice: null,
    async_status: null,
    disabled_tool_ids: [],
    is_do_not_remember: false,
    memory_scope: 'global_enabled',
    id,
  };
}
