import { post, type CypherBody } from './api.js';
import { cypherResult } from './answers.js';
import { count, errorBox, h, replace } from './dom.js';

/** The seed's four example queries, as written there. */
const EXAMPLES: { name: string; query: string; params: string }[] = [
  {
    name: 'Conversations from one platform',
    query: `MATCH (c:Conversation)\nWHERE c.source = 'claude-ai'\nRETURN c.name, c.message_count, c.created_at\nORDER BY c.created_at DESC`,
    params: '{}',
  },
  {
    name: 'A conversation thread in order',
    query: `MATCH path = (first:Message)-[:NEXT*]->(last:Message)\nWHERE first.conversation_id = $conv_id\n  AND NOT ()-[:NEXT]->(first)\nRETURN [n IN nodes(path) | {role: n.role, content: left(n.content, 200)}] AS thread`,
    params: '{"conv_id": ""}',
  },
  {
    name: 'Cross-platform count',
    query: `MATCH (c:Conversation)\nRETURN c.source, count(c) AS conversations, sum(c.message_count) AS total_messages`,
    params: '{}',
  },
  {
    name: 'Search imported conversations',
    query: `MATCH (d:Document)\nWHERE d.template_id = 'chat-import'\n  AND d.content CONTAINS $search_term\nRETURN d.title, d.source, d.created_at\nORDER BY d.created_at DESC`,
    params: '{"search_term": "sourdough"}',
  },
];

function cell(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/**
 * A column's name that may wrap after its dots and underscores (`total_messages`, `c.source`):
 * on a phone the header wraps there instead of running past the screen's edge.
 */
function columnName(name: string): HTMLElement {
  return h(
    'th',
    { scope: 'col' },
    ...name.split(/(?<=[._])/).flatMap((part, i) => (i === 0 ? [part] : [h('wbr'), part])),
  );
}

/** How many rows and how long, then the rows as a table (cells are text: values are untrusted). */
function rowsTable(rows: Record<string, unknown>[], milliseconds: number): (HTMLElement | null)[] {
  const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  return [
    h(
      'p',
      { class: 'summary' },
      `${count(rows.length)} row${rows.length === 1 ? '' : 's'} in ${count(milliseconds)} ms`,
    ),
    rows.length === 0
      ? null
      : h(
          'table',
          { class: 'cypher-table' },
          h('thead', {}, h('tr', {}, ...columns.map(columnName))),
          h(
            'tbody',
            {},
            ...rows.map((r) => h('tr', {}, ...columns.map((c) => h('td', {}, cell(r[c]))))),
          ),
        ),
  ];
}

/** Read-only Cypher (the server refuses writes) with the seed's examples; rows as a table. */
export function showCypher(view: HTMLElement): void {
  const query = h('textarea', {
    id: 'cypher-query',
    rows: 8,
    spellcheck: false,
    'aria-label': 'Cypher query',
  });
  query.value = EXAMPLES[2]?.query ?? '';
  const params = h('textarea', {
    id: 'cypher-params',
    rows: 2,
    spellcheck: false,
    'aria-label': 'Parameters (JSON)',
  });
  params.value = '{}';
  const results = h('div', { id: 'cypher-results' });
  const run = async (): Promise<void> => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(params.value || '{}');
    } catch {
      replace(results, errorBox(new Error('the parameters are not JSON')));
      return;
    }
    replace(results, h('p', { class: 'empty' }, 'Running…'));
    try {
      const body: CypherBody = { query: query.value, params: parsed as CypherBody['params'] };
      const { rows, milliseconds } = await post('/api/cypher', body, cypherResult);
      replace(results, ...rowsTable(rows, milliseconds));
    } catch (error) {
      replace(results, errorBox(error));
    }
  };
  const examples = h(
    'select',
    {
      id: 'cypher-examples',
      'aria-label': 'Examples',
      onchange: (event: Event) => {
        const example = EXAMPLES[Number((event.target as HTMLSelectElement).value)];
        if (example) {
          query.value = example.query;
          params.value = example.params;
        }
      },
    },
    h('option', { value: '' }, 'Example queries…'),
    ...EXAMPLES.map((e, i) => h('option', { value: i }, e.name)),
  );
  query.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) void run();
  });
  replace(
    view,
    h('h1', {}, 'Cypher'),
    h('p', { class: 'meta' }, 'Read-only: queries that write are refused. Ctrl+Enter runs.'),
    examples,
    query,
    h('label', { class: 'params' }, 'Parameters (JSON) ', params),
    h('button', { type: 'button', id: 'cypher-run', onclick: () => void run() }, 'Run'),
    results,
  );
}
