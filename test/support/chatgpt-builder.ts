/** Small hand-made ChatGPT conversations for tests. */

type Json = Record<string, unknown>;

/** A message node of a ChatGPT `mapping`. */
export function node(
  id: string,
  parent: string | null,
  children: string[],
  message: Json | null,
): Json {
  return { id, parent, children, message };
}

/** A ChatGPT message. */
export function msg(
  id: string,
  role: string,
  text: string,
  time: number | null,
  extra: Json = {},
): Json {
  return {
    id,
    author: { role, name: extra.authorName ?? null, metadata: {} },
    create_time: time,
    content: extra.content ?? { content_type: 'text', parts: [text] },
    status: 'finished_successfully',
    metadata: extra.metadata ?? {},
    recipient: extra.recipient ?? 'all',
  };
}

/** A small branched conversation: root → user → (answer a | answer b), current on b. */
export function branchedConversation(id = 'conv-1', title: string | null = 'Branched'): Json {
  return {
    id,
    conversation_id: id,
    title,
    create_time: 1_700_000_000,
    update_time: 1_700_000_100,
    current_node: 'b',
    mapping: {
      root: node('root', null, ['u'], null),
      u: node('u', 'root', ['a', 'b'], msg('u', 'user', 'hello', 1_700_000_001)),
      a: node(
        'a',
        'u',
        [],
        msg('a', 'assistant', 'first answer', 1_700_000_002, {
          metadata: { model_slug: 'gpt-4o' },
        }),
      ),
      b: node(
        'b',
        'u',
        [],
        msg('b', 'assistant', 'second answer', 1_700_000_003, {
          metadata: { model_slug: 'gpt-4o' },
        }),
      ),
    },
  };
}
