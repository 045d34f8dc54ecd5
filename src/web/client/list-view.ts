import { get, type Answer, type ConversationInfo } from './api.js';
import { count, formatDate, h, hashParams, replace } from './dom.js';

const PAGE = 50;

/** Moves to the list with some filters changed (an empty value removes the filter). */
type Go = (changes: Record<string, string | undefined>) => void;

function sortOption(params: URLSearchParams, value: string, text: string): HTMLElement {
  return h('option', { value, selected: params.get('sort') === value }, text);
}

/** The filter form, filled from the address; submitting it starts again at the first page. */
function filterForm(params: URLSearchParams, sources: string[], go: Go): HTMLElement {
  const submit = (event: Event): void => {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const value = (name: string): string | undefined => {
      const v = data.get(name);
      return typeof v === 'string' && v !== '' ? v : undefined;
    };
    go({
      source: value('source'),
      since: value('since'),
      until: value('until'),
      title: value('title'),
      tools: data.get('tools') ? '1' : undefined,
      branches: data.get('branches') ? '1' : undefined,
      sort: value('sort'),
      page: undefined,
    });
  };
  return h(
    'form',
    { class: 'filters', id: 'list-filters', onsubmit: submit },
    h('input', {
      name: 'title',
      type: 'search',
      placeholder: 'Title contains…',
      value: params.get('title') ?? '',
      'aria-label': 'Title contains',
    }),
    h(
      'select',
      { name: 'source', 'aria-label': 'Source' },
      h('option', { value: '' }, 'All sources'),
      ...sources.map((s) => h('option', { value: s, selected: params.get('source') === s }, s)),
    ),
    h(
      'label',
      {},
      'From ',
      h('input', { name: 'since', type: 'date', value: params.get('since') ?? '' }),
    ),
    h(
      'label',
      {},
      'before ',
      h('input', { name: 'until', type: 'date', value: params.get('until') ?? '' }),
    ),
    h(
      'label',
      {},
      h('input', { name: 'tools', type: 'checkbox', checked: params.get('tools') === '1' }),
      ' tool calls',
    ),
    h(
      'label',
      {},
      h('input', { name: 'branches', type: 'checkbox', checked: params.get('branches') === '1' }),
      ' branches',
    ),
    h(
      'select',
      { name: 'sort', 'aria-label': 'Sort' },
      sortOption(params, 'newest', 'Newest first'),
      sortOption(params, 'oldest', 'Oldest first'),
      sortOption(params, 'most-messages', 'Most messages'),
    ),
    h('button', { type: 'submit' }, 'Filter'),
  );
}

/** Previous and next, and which of the total this page shows. */
function pager(page: number, total: number, go: Go): HTMLElement {
  const from = total === 0 ? 0 : page * PAGE + 1;
  const to = Math.min(total, (page + 1) * PAGE);
  const turn = (target: number) => () => {
    go({ page: String(target) });
  };
  return h(
    'div',
    { class: 'pager' },
    h('button', { type: 'button', disabled: page === 0, onclick: turn(page - 1) }, '‹ Previous'),
    h('span', { class: 'range' }, `${count(from)}–${count(to)} of ${count(total)}`),
    h('button', { type: 'button', disabled: to >= total, onclick: turn(page + 1) }, 'Next ›'),
  );
}

/** The page's conversations as a table (names are text nodes: chat titles are untrusted). */
function conversationTable(items: ConversationInfo[]): HTMLElement {
  if (items.length === 0)
    return h(
      'p',
      { class: 'empty' },
      'No conversations match. Import an export on the Import page.',
    );
  const rows = items.map((c) =>
    h(
      'tr',
      {},
      h(
        'td',
        {},
        h('a', { href: `#/c/${encodeURIComponent(c.id)}`, class: 'conversation-link' }, c.name),
      ),
      h('td', {}, h('span', { class: `source source-${c.source}` }, c.source)),
      h('td', { class: 'num' }, count(c.messageCount)),
      h('td', {}, formatDate(c.createdAt)),
    ),
  );
  return h(
    'table',
    { class: 'conversations' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, 'Title'),
        h('th', {}, 'Source'),
        h('th', { class: 'num' }, 'Messages'),
        h('th', {}, 'Created'),
      ),
    ),
    h('tbody', {}, ...rows),
  );
}

/** The conversations: filters in the address (so Back works), a page of 50 at a time. */
export async function showList(view: HTMLElement): Promise<void> {
  const params = hashParams();
  const page = Math.max(0, Number(params.get('page') ?? 0) || 0);
  const query = new URLSearchParams();
  for (const name of ['source', 'since', 'until', 'title', 'tools', 'branches', 'sort']) {
    const value = params.get(name);
    if (value) query.set(name, value);
  }
  query.set('offset', String(page * PAGE));
  query.set('limit', String(PAGE));
  const [sources, result] = await Promise.all([
    get<Answer<'sources'>>('/api/sources'),
    get<Answer<'listConversations'>>(`/api/conversations?${query.toString()}`),
  ]);
  const go: Go = (changes) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    location.hash = `#/?${next.toString()}`;
  };
  replace(
    view,
    h('h1', {}, 'Conversations'),
    filterForm(params, sources, go),
    pager(page, result.total, go),
    conversationTable(result.items),
  );
}
