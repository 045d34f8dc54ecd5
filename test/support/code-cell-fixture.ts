import { msg, node } from './chatgpt-builder.js';

/** A code-interpreter cell whose Python comments Markdown would turn into headings. */
export const CELL =
  '# sum the squares\nvalues = [1, 2, 3]\n\n# then print them\nprint(sum(v * v for v in values))';

/** A ChatGPT conversation (id cell-1) that runs CELL in the python tool and answers 14. */
export function codeCellConversation(): Record<string, unknown> {
  return {
    id: 'cell-1',
    conversation_id: 'cell-1',
    title: 'Squares in the interpreter',
    create_time: 1_705_100_000,
    update_time: 1_705_100_100,
    current_node: 'a',
    mapping: {
      root: node('root', null, ['u'], null),
      u: node(
        'u',
        'root',
        ['c'],
        msg('u', 'user', 'What do 1, 2 and 3 squared add up to?', 1_705_100_001),
      ),
      c: node(
        'c',
        'u',
        ['o'],
        msg('c', 'assistant', '', 1_705_100_002, {
          content: { content_type: 'code', language: 'unknown', text: CELL },
          recipient: 'python',
        }),
      ),
      o: node(
        'o',
        'c',
        ['a'],
        msg('o', 'tool', '', 1_705_100_003, {
          authorName: 'python',
          content: { content_type: 'execution_output', text: '14' },
        }),
      ),
      a: node('a', 'o', [], msg('a', 'assistant', 'The sum is **14**.', 1_705_100_004)),
    },
  };
}
