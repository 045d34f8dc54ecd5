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

/** A conversation's `mapping` as it grows, and the clock its messages are stamped with. */
interface Tree {
  random: Random;
  mapping: Record<string, Json>;
  time: number;
}

/** What every turn of one conversation shares. */
interface Chat {
  tree: Tree;
  topic: readonly string[];
  model: string;
  assetIds: readonly string[];
}

/** One turn's assistant messages answer the same request. */
interface Turn {
  chat: Chat;
  requestId: string;
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
  const tree: Tree = { random, mapping: {}, time: START + n * 3600 + random.int(0, 3000) };
  const created = tree.time;
  const rootId = random.chance(0.5) ? 'client-created-root' : random.uuid();
  tree.mapping[rootId] = { id: rootId, message: null, parent: null, children: [] };

  let leaf = addNode(
    tree,
    rootId,
    newMessage(tree, 'system', text(''), {
      metadata: { is_visually_hidden_from_conversation: true },
    }),
  );
  if (random.chance(0.2)) leaf = addNode(tree, leaf, customInstructions(tree, topic));
  const turns = fixedTurns ?? random.int(2, 24);
  const chat: Chat = { tree, topic, model, assetIds };
  for (let turn = 0; turn < turns; turn++) leaf = addTurn(chat, leaf);
  return conversationJson(tree, { id, model, topic, created, leaf });
}

function addNode(tree: Tree, parent: string, message: Json): string {
  const key = message.id as string;
  tree.mapping[key] = { id: key, message, parent, children: [] };
  (tree.mapping[parent]?.children as string[]).push(key);
  return key;
}

function newMessage(tree: Tree, role: string, content: Json, extra: Json = {}): Json {
  tree.time += tree.random.int(2, 90) + tree.random.next();
  return {
    id: tree.random.uuid(),
    author: { role, name: extra.authorName ?? null, metadata: {} },
    create_time: role === 'system' ? null : tree.time,
    update_time: null,
    content,
    status: 'finished_successfully',
    end_turn: role === 'assistant' ? true : null,
    weight: role === 'system' ? 0 : 1,
    metadata: extra.metadata ?? {},
    recipient: extra.recipient ?? 'all',
    channel: null,
  };
}

function text(t: string): Json {
  return { content_type: 'text', parts: [t] };
}

/** The hidden `user_editable_context` message some conversations start with. */
function customInstructions(tree: Tree, topic: readonly string[]): Json {
  return newMessage(
    tree,
    'user',
    {
      content_type: 'user_editable_context',
      user_profile: `I work with ${topic[0] ?? 'software'} every day.`,
      user_instructions: 'Answer briefly and show code when it helps.',
    },
    { metadata: { is_visually_hidden_from_conversation: true, is_user_system_message: true } },
  );
}

/** A prompt, maybe edited, tool use and reasoning, and an answer, maybe regenerated: the new leaf. */
function addTurn(chat: Chat, leaf: string): string {
  const { tree, topic } = chat;
  const random = tree.random;
  const userContent = userPrompt(chat);
  const requestId = random.uuid();
  let user = addNode(
    tree,
    leaf,
    newMessage(tree, 'user', userContent, {
      metadata: { request_id: requestId, timestamp_: 'absolute', message_type: null },
    }),
  );
  if (random.chance(0.04)) {
    // An edited prompt: a sibling of the first version, which becomes the shown branch.
    const parent = tree.mapping[user]?.parent as string;
    user = addNode(
      tree,
      parent,
      newMessage(tree, 'user', text(prompt(random, topic)), {
        metadata: { request_id: random.uuid(), timestamp_: 'absolute' },
      }),
    );
  }
  const turn: Turn = { chat, requestId };
  let at = user;
  if (random.chance(0.08)) at = addReasoning(turn, at);
  if (random.chance(0.1)) at = addPythonCall(turn, at);
  let citations: Json[] = [];
  if (random.chance(0.05)) ({ at, citations } = addBrowsing(turn, at));
  const reply = addNode(
    tree,
    at,
    newMessage(tree, 'assistant', text(answer(random, topic, random.int(1, 5))), {
      metadata: { ...assistantMeta(turn, at), citations },
    }),
  );
  if (!random.chance(0.08)) return reply;
  // A regenerated answer: a sibling under the same parent, shown instead of the first.
  return addNode(
    tree,
    at,
    newMessage(tree, 'assistant', text(answer(random, topic, random.int(1, 4))), {
      metadata: assistantMeta(turn, at),
    }),
  );
}

/** Mostly text; sometimes an image from the export's files with the text. */
function userPrompt(chat: Chat): Json {
  const random = chat.tree.random;
  if (!(chat.assetIds.length > 0 && random.chance(0.05))) return text(prompt(random, chat.topic));
  return {
    content_type: 'multimodal_text',
    parts: [
      {
        content_type: 'image_asset_pointer',
        asset_pointer: `file-service://${random.pick(chat.assetIds)}`,
        size_bytes: 68,
        width: 1,
        height: 1,
        fovea: null,
        metadata: null,
      },
      prompt(random, chat.topic),
    ],
  };
}

function assistantMeta(turn: Turn, parentId: string): Json {
  return {
    model_slug: turn.chat.model,
    default_model_slug: turn.chat.model,
    finish_details: { type: 'stop', stop_tokens: [200002] },
    is_complete: true,
    request_id: turn.requestId,
    timestamp_: 'absolute',
    message_type: null,
    parent_id: parentId,
  };
}

/** A `thoughts` message and its `reasoning_recap`, as reasoning models write them. */
function addReasoning(turn: Turn, at: string): string {
  const { tree, topic } = turn.chat;
  const random = tree.random;
  const thoughts = addNode(
    tree,
    at,
    newMessage(
      tree,
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
      { metadata: { ...assistantMeta(turn, at), reasoning_status: 'is_reasoning' } },
    ),
  );
  return addNode(
    tree,
    thoughts,
    newMessage(
      tree,
      'assistant',
      { content_type: 'reasoning_recap', content: `Thought for ${random.int(3, 90)}s` },
      { metadata: { ...assistantMeta(turn, thoughts), reasoning_status: 'reasoning_ended' } },
    ),
  );
}

/** Code sent to the python tool (recipient "python") and the tool's output. */
function addPythonCall(turn: Turn, at: string): string {
  const { tree } = turn.chat;
  const random = tree.random;
  const call = addNode(
    tree,
    at,
    newMessage(
      tree,
      'assistant',
      {
        content_type: 'code',
        language: 'unknown',
        response_format_name: null,
        text: `import statistics\nprint(statistics.mean([${random.int(1, 9)}, ${random.int(1, 9)}, ${random.int(1, 9)}]))`,
      },
      { recipient: 'python', metadata: assistantMeta(turn, at) },
    ),
  );
  return addNode(
    tree,
    call,
    newMessage(
      tree,
      'tool',
      { content_type: 'execution_output', text: String(random.int(1, 9)) },
      {
        authorName: 'python',
        metadata: { aggregate_result: { status: 'success', code: 'print(...)' } },
      },
    ),
  );
}

/** A browser search and its result page; the answer cites the page. */
function addBrowsing(turn: Turn, at: string): { at: string; citations: Json[] } {
  const { tree, topic } = turn.chat;
  const random = tree.random;
  const search = addNode(
    tree,
    at,
    newMessage(
      tree,
      'assistant',
      { content_type: 'code', language: 'unknown', text: `search("${topic[1] ?? 'news'}")` },
      { recipient: 'browser', metadata: assistantMeta(turn, at) },
    ),
  );
  const url = `https://example.org/${(topic[1] ?? 'page').replace(/ /g, '-')}`;
  const page = addNode(
    tree,
    search,
    newMessage(
      tree,
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
  const citation = {
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
  };
  return { at: page, citations: [citation] };
}

function conversationJson(
  tree: Tree,
  c: { id: string; model: string; topic: readonly string[]; created: number; leaf: string },
): Json {
  const random = tree.random;
  return {
    title: random.chance(0.97)
      ? `${c.topic[0] ?? 'Chat'}: ${c.topic[random.int(1, c.topic.length - 1)] ?? ''}`
      : null,
    create_time: c.created,
    update_time: tree.time,
    mapping: tree.mapping,
    moderation_results: [],
    current_node: c.leaf,
    plugin_ids: null,
    conversation_id: c.id,
    conversation_template_id: null,
    gizmo_id: null,
    gizmo_type: null,
    is_archived: random.chance(0.05),
    is_starred: null,
    safe_urls: [],
    blocked_urls: [],
    default_model_slug: c.model,
    conversation_origin: null,
    voice: null,
    async_status: null,
    disabled_tool_ids: [],
    is_do_not_remember: false,
    memory_scope: 'global_enabled',
    id: c.id,
  };
}
