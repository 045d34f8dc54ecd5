import { createHash } from 'node:crypto';
import type {
  ChatgptSample,
  SampleFile,
  SampleReply,
  SampleSource,
  SampleStep,
  SampleTurn,
} from './conversations/sample-chat.js';
import { replyOf, SamplePace, uuidMaker } from './sample-pace.js';

type Json = Record<string, unknown>;

/** A file the export ships beside conversations.json, named as ChatGPT names uploads. */
export interface ChatgptUpload {
  entry: string;
  /** The text of a document; an image is the sample PNG. */
  text?: string;
}

/** A written conversation in ChatGPT's export shape, and the uploads it points to. */
export interface ChatgptRecord {
  conversation: Json;
  uploads: ChatgptUpload[];
}

/** What one conversation's tree shares while it grows. */
interface Tree {
  sample: ChatgptSample;
  mapping: Record<string, Json>;
  pace: SamplePace;
  uuid: () => string;
  uploads: ChatgptUpload[];
}

/** Builds a ChatGPT `mapping` tree from a written conversation, side branches and all. */
export function chatgptRecord(sample: ChatgptSample): ChatgptRecord {
  const uuid = uuidMaker(`chatgpt:${sample.slug}`);
  const pace = new SamplePace(sample.start);
  const tree: Tree = { sample, mapping: {}, pace, uuid, uploads: [] };
  const id = uuid();
  const created = pace.now / 1000;
  const rootId = 'client-created-root';
  tree.mapping[rootId] = { id: rootId, message: null, parent: null, children: [] };
  let leaf = add(
    tree,
    rootId,
    message(tree, 'system', { content_type: 'text', parts: [''] }, { hidden: true }),
  );
  if (sample.instructions) {
    leaf = add(
      tree,
      leaf,
      message(
        tree,
        'user',
        {
          content_type: 'user_editable_context',
          user_profile: sample.instructions.profile,
          user_instructions: sample.instructions.instructions,
        },
        { hidden: true, metadata: { is_user_system_message: true } },
      ),
    );
  }
  for (const turn of sample.turns) leaf = addTurn(tree, leaf, turn);
  return {
    conversation: {
      title: sample.title,
      create_time: created,
      update_time: pace.now / 1000,
      mapping: tree.mapping,
      moderation_results: [],
      current_node: leaf,
      plugin_ids: null,
      conversation_id: id,
      conversation_template_id: null,
      gizmo_id: null,
      gizmo_type: null,
      is_archived: false,
      is_starred: null,
      safe_urls: [],
      blocked_urls: [],
      default_model_slug: sample.model,
      conversation_origin: null,
      voice: null,
      async_status: null,
      disabled_tool_ids: [],
      is_do_not_remember: false,
      memory_scope: 'global_enabled',
      id,
    },
    uploads: tree.uploads,
  };
}

function add(tree: Tree, parent: string, node: Json): string {
  const key = node.id as string;
  tree.mapping[key] = { id: key, message: node, parent, children: [] };
  (tree.mapping[parent]?.children as string[]).push(key);
  return key;
}

interface MessageOptions {
  hidden?: boolean;
  recipient?: string;
  authorName?: string;
  metadata?: Json;
}

function message(tree: Tree, role: string, content: Json, options: MessageOptions = {}): Json {
  return {
    id: tree.uuid(),
    author: { role, name: options.authorName ?? null, metadata: {} },
    create_time: tree.pace.now / 1000,
    update_time: null,
    content,
    status: 'finished_successfully',
    end_turn: role === 'assistant' && options.recipient === undefined ? true : null,
    weight: options.hidden ? 0 : 1,
    metadata: {
      ...(options.hidden ? { is_visually_hidden_from_conversation: true } : {}),
      ...options.metadata,
    },
    recipient: options.recipient ?? 'all',
    channel: null,
  };
}

/** The question (and an edited or regenerated side branch), then the answer: the new leaf. */
function addTurn(tree: Tree, leaf: string, turn: SampleTurn): string {
  const { pace } = tree;
  if (turn.later !== undefined) pace.reading('', turn.later);
  if (turn.before?.user !== undefined) {
    pace.typing(turn.before.user);
    const first = add(tree, leaf, userMessage(tree, turn.before.user, []));
    const answered = addReply(tree, first, replyOf(turn.before.reply));
    pace.reading(answered);
  }
  pace.typing(turn.user);
  const user = add(tree, leaf, userMessage(tree, turn.user, turn.files ?? []));
  if (turn.before !== undefined && turn.before.user === undefined) {
    const first = replyOf(turn.before.reply);
    addReply(tree, user, first);
    pace.reading(first.text.slice(0, 200));
  }
  const reply = replyOf(turn.reply);
  const shown = addReply(tree, user, reply);
  pace.reading(reply.text);
  return shown;
}

function userMessage(tree: Tree, text: string, files: readonly SampleFile[]): Json {
  const images = files.filter((f) => f.text === undefined);
  const documents = files.filter((f) => f.text !== undefined);
  const parts: unknown[] = images.map((file) => {
    const id = fileId(tree, file);
    tree.uploads.push({ entry: `${id}-${file.name}` });
    return {
      content_type: 'image_asset_pointer',
      asset_pointer: `file-service://${id}`,
      size_bytes: 68,
      width: 1,
      height: 1,
      fovea: null,
      metadata: null,
    };
  });
  const attachments = documents.map((file) => {
    const id = fileId(tree, file);
    tree.uploads.push({ entry: `${id}-${file.name}`, text: file.text ?? '' });
    return {
      id,
      name: file.name,
      size: Buffer.byteLength(file.text ?? ''),
      mime_type: file.name.endsWith('.csv') ? 'text/csv' : 'text/plain',
    };
  });
  const content =
    images.length > 0
      ? { content_type: 'multimodal_text', parts: [...parts, text] }
      : { content_type: 'text', parts: [text] };
  return message(tree, 'user', content, {
    metadata: {
      ...(attachments.length > 0 ? { attachments } : {}),
      request_id: tree.uuid(),
      message_type: null,
    },
  });
}

// ChatGPT names uploads `file-<22 letters and digits>`; the name follows in the zip entry.
function fileId(tree: Tree, file: SampleFile): string {
  const hash = createHash('sha256').update(`${tree.sample.slug}:${file.name}`).digest('base64');
  return `file-${hash.replace(/[^A-Za-z0-9]/g, '').slice(0, 22)}`;
}

function assistantMeta(tree: Tree, parent: string): Json {
  return {
    model_slug: tree.sample.model,
    default_model_slug: tree.sample.model,
    finish_details: { type: 'stop', stop_tokens: [200002] },
    is_complete: true,
    message_type: null,
    parent_id: parent,
  };
}

/** The steps, then the answer with its citations: returns the answer's node. */
function addReply(tree: Tree, parent: string, reply: SampleReply): string {
  let at = parent;
  for (const step of reply.steps ?? []) at = addStep(tree, at, step);
  tree.pace.writing(reply.text);
  return add(
    tree,
    at,
    message(
      tree,
      'assistant',
      { content_type: 'text', parts: [reply.text] },
      {
        metadata: {
          ...assistantMeta(tree, at),
          citations: (reply.cites ?? []).map((source) => citation(reply.text, source)),
        },
      },
    ),
  );
}

function citation(text: string, source: SampleSource): Json {
  return {
    start_ix: text.length,
    end_ix: text.length,
    citation_format_type: 'tether_og',
    metadata: {
      type: 'webpage',
      title: source.title,
      url: source.url,
      text: source.quote,
      extra: null,
    },
  };
}

function addStep(tree: Tree, at: string, step: SampleStep): string {
  if ('thinking' in step) return addThinking(tree, at, step);
  if ('search' in step) return addSearch(tree, at, step);
  return addToolRun(tree, at, step);
}

/** The `thoughts` message and its `reasoning_recap`, as reasoning models write them. */
function addThinking(tree: Tree, at: string, step: { thinking: string; seconds: number }): string {
  const { pace } = tree;
  pace.pause(step.seconds);
  const thoughts = add(
    tree,
    at,
    message(
      tree,
      'assistant',
      {
        content_type: 'thoughts',
        thoughts: [{ summary: 'Thinking', content: step.thinking, chunks: [], finished: true }],
        source_analysis_msg_id: tree.uuid(),
      },
      { metadata: { ...assistantMeta(tree, at), reasoning_status: 'is_reasoning' } },
    ),
  );
  return add(
    tree,
    thoughts,
    message(
      tree,
      'assistant',
      { content_type: 'reasoning_recap', content: `Thought for ${step.seconds}s` },
      {
        metadata: {
          ...assistantMeta(tree, thoughts),
          reasoning_status: 'reasoning_ended',
          finished_duration_sec: step.seconds,
        },
      },
    ),
  );
}

/** A browser search and its result page (`【n†title†domain】` markers). */
function addSearch(
  tree: Tree,
  at: string,
  step: { search: string; results: SampleSource[] },
): string {
  const { pace } = tree;
  pace.pause(2);
  const call = add(
    tree,
    at,
    message(
      tree,
      'assistant',
      {
        content_type: 'code',
        language: 'unknown',
        text: `search(${JSON.stringify(step.search)})`,
      },
      { recipient: 'browser', metadata: assistantMeta(tree, at) },
    ),
  );
  pace.pause(4);
  const result = step.results
    .map((r, i) => `【${i}†${r.title}†${new URL(r.url).hostname}】\n${r.quote}`)
    .join('\n\n');
  return add(
    tree,
    call,
    message(
      tree,
      'tool',
      {
        content_type: 'tether_browsing_display',
        result,
        summary: null,
        assets: [],
        tether_id: null,
      },
      { authorName: 'browser' },
    ),
  );
}

/** Code sent to the python tool (or JSON to another tool) and the tool's output. */
function addToolRun(
  tree: Tree,
  at: string,
  step: Exclude<SampleStep, { thinking: string } | { search: string }>,
): string {
  const { pace } = tree;
  const run = 'run' in step;
  const code = run ? step.run : JSON.stringify(step.input);
  const name = run ? 'python' : step.tool;
  pace.writing(code);
  const call = add(
    tree,
    at,
    message(
      tree,
      'assistant',
      {
        content_type: 'code',
        language: run ? 'unknown' : 'json',
        text: code,
        response_format_name: null,
      },
      { recipient: name, metadata: assistantMeta(tree, at) },
    ),
  );
  pace.pause(3);
  return add(
    tree,
    call,
    message(
      tree,
      'tool',
      { content_type: 'execution_output', text: step.output },
      {
        authorName: name,
        metadata: run ? { aggregate_result: { status: 'success', code, messages: [] } } : {},
      },
    ),
  );
}
