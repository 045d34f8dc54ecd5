import { get, type ConversationListItem } from './api.js';
import { conversationList, sourceList } from './answers.js';
import { count, errorBox, formatDate, h, hashParams, replace } from './dom.js';
import { foldButton } from './fold-filters.js';
import { periodOf } from './list-periods.js';

const PAGE = 50;

/** Moves to the list with some filters changed (an empty value removes the filter). */
type Go = (changes: Record<string, string | undefined>) => void;

// The sorts, as the address and the API name them (the CLI's `list --sort`), and the date a
// row shows and is grouped by: by title or size there are no periods to group in.
const SORTS = [
  { value: 'updated', text: 'Last updated', date: 'updated' },
  { value: 'created', text: 'Newest first', date: 'created' },
  { value: 'oldest', text: 'Oldest first', date: 'created' },
  { value: 'title', text: 'Title A–Z', date: null },
  { value: 'messages', text: 'Most messages', date: null },
] as const;
type Sort = (typeof SORTS)[number];

function sortOf(params: URLSearchParams): Sort {
  const asked = params.get('sort');
  const legacy = asked === 'newest' ? 'created' : asked === 'most-messages' ? 'messages' : asked;
  return SORTS.find((s) => s.value === legacy) ?? SORTS[0];
}

function check(name: string, label: string, params: URLSearchParams): HTMLElement {
  return h(
    'label',
    {},
    h('input', { name, type: 'checkbox', checked: params.get(name) === '1' }),
    ` ${label}`,
  );
}

/** Typing in the title box: the list follows (debounced), the box keeps the focus. */
type Retitle = (title: string) => void;

// How long typing in the title box pauses before the list follows it.
const TYPING_PAUSE_MS = 250;

/**
 * The filter form, filled from the address; submitting it starts again at the top. The title
 * filters as it is typed. On a phone the filters other than the title fold behind a button
 * (which says how many are set), so the list starts near the top of the screen.
 */
function filterForm(
  params: URLSearchParams,
  sources: string[],
  go: Go,
  retitle: Retitle,
): HTMLElement {
  const submit = (event: Event): void => {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const value = (name: string): string | undefined => {
      const v = data.get(name);
      return typeof v === 'string' && v !== '' ? v : undefined;
    };
    const flag = (name: string): string | undefined => (data.get(name) ? '1' : undefined);
    go({
      source: value('source'),
      since: value('since'),
      until: value('until'),
      title: value('title'),
      tools: flag('tools'),
      branches: flag('branches'),
      empty: flag('empty'),
      sort: value('sort') === 'updated' ? undefined : value('sort'),
    });
  };
  const sort = sortOf(params);
  const date = (name: string, label: string): HTMLElement =>
    h('label', {}, `${label} `, h('input', { name, type: 'date', value: params.get(name) ?? '' }));
  const set = ['source', 'since', 'until', 'tools', 'branches', 'empty', 'sort'].filter(
    (name) => (params.get(name) ?? '') !== '',
  ).length;
  const more = h(
    'div',
    { class: 'more-filters', id: 'more-filters' },
    h(
      'select',
      { name: 'source', 'aria-label': 'Source' },
      h('option', { value: '' }, 'All sources'),
      ...sources.map((s) => h('option', { value: s, selected: params.get('source') === s }, s)),
    ),
    date('since', 'From'),
    date('until', 'before'),
    check('tools', 'tool calls', params),
    check('branches', 'branches', params),
    check('empty', 'show empty', params),
    h(
      'select',
      { name: 'sort', 'aria-label': 'Sort' },
      ...SORTS.map((s) => h('option', { value: s.value, selected: s === sort }, s.text)),
    ),
    h('button', { type: 'submit' }, 'Filter'),
  );
  const form = h('form', { class: 'filters foldable', id: 'list-filters', onsubmit: submit });
  form.append(titleBox(params, retitle), foldButton(form, 'more-filters', set), more);
  return form;
}

/** The title box: the list follows what is typed, once typing pauses. */
function titleBox(params: URLSearchParams, retitle: Retitle): HTMLInputElement {
  const title = h('input', {
    name: 'title',
    type: 'search',
    placeholder: 'Title contains…',
    value: params.get('title') ?? '',
    'aria-label': 'Title contains',
  });
  let pause: number | undefined;
  title.addEventListener('input', () => {
    window.clearTimeout(pause);
    pause = window.setTimeout(() => {
      retitle(title.value.trim());
    }, TYPING_PAUSE_MS);
  });
  return title;
}

function dateOf(item: ConversationListItem, sort: Sort): string {
  return sort.date === 'created' ? item.createdAt : (item.updatedAt ?? item.createdAt);
}

// A preview that only says the title again (a Claude Code session is named by its first
// prompt) is left out.
function repeats(item: ConversationListItem): boolean {
  const flat = (text: string): string => text.replace(/…$/, '').trim().toLowerCase();
  const [title, preview] = [flat(item.name), flat(item.preview)];
  return preview === '' || title.startsWith(preview) || preview.startsWith(title);
}

/**
 * One conversation: its title (a link; an untitled one is named by its preview, as the chat
 * apps do), its preview, and source, model, size and date.
 */
function row(item: ConversationListItem, sort: Sort): HTMLElement {
  const untitled = item.title === null && item.preview !== '';
  const messages = `${count(item.messageCount)} ${item.messageCount === 1 ? 'message' : 'messages'}`;
  const when = dateOf(item, sort);
  // Names and previews are text nodes: chat text is untrusted.
  return h(
    'li',
    { class: 'conversation-row' },
    h(
      'div',
      { class: 'row-main' },
      h(
        'a',
        {
          href: `#/c/${encodeURIComponent(item.id)}`,
          class: untitled ? 'conversation-link untitled' : 'conversation-link',
          title: untitled ? item.name : undefined,
        },
        untitled ? item.preview : item.name,
      ),
      !untitled && !repeats(item) && h('p', { class: 'preview' }, item.preview),
    ),
    h(
      'div',
      { class: 'row-meta' },
      h('span', { class: `source source-${item.source}` }, item.source),
      item.model && h('span', { class: 'model' }, item.model),
      h('span', { class: 'count' }, messages),
      h('time', { datetime: when }, formatDate(when)),
    ),
  );
}

/** The rows, under a heading per period when the sort is by date; pages append to it. */
class Rows {
  readonly element = h('div', { class: 'conversation-groups' });
  private period: string | undefined;
  private list: HTMLElement | undefined;
  shown = 0;

  constructor(private readonly sort: Sort) {}

  add(items: ConversationListItem[]): void {
    for (const item of items) {
      const period = this.sort.date === null ? '' : periodOf(dateOf(item, this.sort));
      if (this.list === undefined || period !== this.period) {
        this.period = period;
        this.list = h('ol', { class: 'conversation-list' });
        if (period !== '') this.element.append(h('h2', { class: 'period' }, period));
        this.element.append(this.list);
      }
      this.list.append(row(item, this.sort));
    }
    this.shown += items.length;
  }
}

function apiQuery(params: URLSearchParams, sort: Sort): URLSearchParams {
  const query = new URLSearchParams();
  for (const name of ['source', 'since', 'until', 'title', 'tools', 'branches']) {
    const value = params.get(name);
    if (value) query.set(name, value);
  }
  query.set('sort', sort.value === 'created' ? 'newest' : sort.value);
  // Conversations with no message (a `conv-…` placeholder) only when asked for.
  if (params.get('empty') !== '1') query.set('minMessages', '1');
  query.set('limit', String(PAGE));
  return query;
}

/**
 * The list under the filters: how many, the rows, and "Show more", 50 at a time, the next 50
 * read from where the last ended (a cursor: as fast at the 100,000th as at the first) when
 * "Show more" is pressed or scrolled into view.
 */
async function listBody(params: URLSearchParams): Promise<HTMLElement[]> {
  const sort = sortOf(params);
  const query = apiQuery(params, sort);
  const first = await get(`/api/conversations?${query.toString()}`, conversationList);
  const rows = new Rows(sort);
  rows.add(first.items);
  const shown = h('p', { class: 'list-count', 'aria-live': 'polite' });
  const more = h('button', { type: 'button', class: 'more' }, 'Show more');
  let cursor = first.nextCursor;
  const update = (): void => {
    shown.textContent =
      first.total === 0
        ? 'No conversations match. Import an export on the Import page.'
        : `${count(rows.shown)} of ${count(first.total)} ${first.total === 1 ? 'conversation' : 'conversations'}`;
    more.hidden = cursor === null;
  };
  let loading: Promise<void> | null = null;
  const fetchMore = async (after: string): Promise<void> => {
    more.disabled = true;
    try {
      query.set('after', after);
      const page = await get(`/api/conversations?${query.toString()}`, conversationList);
      rows.add(page.items);
      cursor = page.nextCursor;
      update();
    } finally {
      more.disabled = false;
      loading = null;
    }
  };
  // One page at a time: a second ask while one is on its way waits for that one.
  const loadMore = (): Promise<void> => {
    if (loading === null && cursor !== null) loading = fetchMore(cursor);
    return loading ?? Promise.resolve();
  };
  // Infinite scroll: the button coming near the viewport loads the next page; observed again
  // after each page, so a page too short to push it away loads the one after. Let go once the
  // list has left the page, not before it is on it: the observer's first report can come while
  // the page still waits for its other answers (the sources), and letting go then left the list
  // with no infinite scroll.
  let placed = false;
  const near = new IntersectionObserver(
    (entries) => {
      if (more.isConnected) placed = true;
      else if (placed) near.disconnect();
      if (more.isConnected && entries.some((e) => e.isIntersecting))
        void loadMore().then(watch, failed);
    },
    { rootMargin: '400px' },
  );
  const failed = (error: unknown): void => {
    near.disconnect();
    more.replaceWith(errorBox(error));
  };
  const watch = (): void => {
    near.unobserve(more);
    if (cursor !== null && more.isConnected) near.observe(more);
  };
  more.addEventListener('click', () => void loadMore().then(undefined, failed));
  near.observe(more);
  update();
  return [shown, rows.element, more];
}

/**
 * The conversations: filters in the address (so Back works), the list under them. Typing a
 * title redraws the list alone, in place (the address follows without a new history entry), so
 * the box keeps the focus and what is typed.
 */
export async function showList(view: HTMLElement): Promise<void> {
  const params = hashParams();
  const [sources, body] = await Promise.all([get('/api/sources', sourceList), listBody(params)]);
  const go: Go = (changes) => {
    const next = new URLSearchParams(hashParams());
    for (const [name, value] of Object.entries(changes)) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    location.hash = `#/?${next.toString()}`;
  };
  const list = h('div', { class: 'list-body' }, ...body);
  let asked = 0;
  const retitle: Retitle = (title) => {
    const next = new URLSearchParams(hashParams());
    if (title !== '') next.set('title', title);
    else next.delete('title');
    history.replaceState(null, '', `#/?${next.toString()}`);
    const at = ++asked;
    list.setAttribute('aria-busy', 'true');
    listBody(next)
      .then(
        (fresh) => {
          if (at === asked) replace(list, ...fresh);
        },
        (error: unknown) => {
          if (at === asked) replace(list, errorBox(error));
        },
      )
      .finally(() => {
        if (at === asked) list.removeAttribute('aria-busy');
      });
  };
  replace(view, h('h1', {}, 'Conversations'), filterForm(params, sources, go, retitle), list);
}
