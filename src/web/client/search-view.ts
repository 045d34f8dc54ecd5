import { get, type SearchResult } from './api.js';
import { count, errorBox, formatDate, h, hashParams, replace } from './dom.js';

const MATCH_START = '\ue000';
const MATCH_END = '\ue001';

/** A snippet with its matched words marked; the text itself stays text. */
function snippet(text: string): HTMLElement {
  const out = h('p', { class: 'snippet' });
  for (const [i, part] of text.split(MATCH_START).entries()) {
    if (i === 0) {
      out.append(part);
      continue;
    }
    const end = part.indexOf(MATCH_END);
    if (end < 0) {
      out.append(part);
      continue;
    }
    out.append(h('mark', {}, part.slice(0, end)), part.slice(end + MATCH_END.length));
  }
  return out;
}

/** Search as you type: ranked hits with snippets; a hit opens its conversation at the message. */
export async function showSearch(view: HTMLElement): Promise<void> {
  const params = hashParams();
  const sources = await get<string[]>('/api/sources');
  const results = h('div', { class: 'results', id: 'search-results' });
  const input = h('input', {
    type: 'search',
    name: 'q',
    id: 'search-input',
    placeholder: 'Search your conversations…',
    value: params.get('q') ?? '',
    autocomplete: 'off',
    'aria-label': 'Search',
  });
  const source = h(
    'select',
    { name: 'source', 'aria-label': 'Source' },
    h('option', { value: '' }, 'All sources'),
    ...sources.map((s) => h('option', { value: s, selected: params.get('source') === s }, s)),
  );
  const role = h(
    'select',
    { name: 'role', 'aria-label': 'Role' },
    h('option', { value: '' }, 'Any role'),
    ...['user', 'assistant', 'tool', 'system'].map((r) =>
      h('option', { value: r, selected: params.get('role') === r }, r),
    ),
  );
  const since = h('input', {
    type: 'date',
    name: 'since',
    value: params.get('since') ?? '',
    'aria-label': 'From',
  });
  const until = h('input', {
    type: 'date',
    name: 'until',
    value: params.get('until') ?? '',
    'aria-label': 'Before',
  });
  let controller: AbortController | undefined;
  let timer: number | undefined;

  const run = async (): Promise<void> => {
    controller?.abort();
    const q = input.value.trim();
    const query = new URLSearchParams();
    if (q) query.set('q', q);
    for (const field of [source, role, since, until])
      if (field.value) query.set(field.name, field.value);
    // Keep the search in the address without re-rendering the page.
    history.replaceState(null, '', `#/search?${query.toString()}`);
    if (!q) {
      replace(results, h('p', { class: 'empty' }, 'Type to search every message.'));
      return;
    }
    controller = new AbortController();
    try {
      const result = await get<SearchResult>(`/api/search?${query.toString()}`, controller.signal);
      const summary =
        result.hits.length === 0
          ? 'No matches.'
          : `${count(result.hits.length)} best of ${result.matchesCapped ? 'more than ' : ''}${count(result.matches)} matching messages${result.ranked < result.matches ? ` (the ${count(result.ranked)} most recent ranked)` : ''}`;
      replace(
        results,
        h('p', { class: 'summary' }, summary),
        ...result.hits.map((hit) =>
          h(
            'a',
            {
              class: 'hit',
              href: `#/c/${encodeURIComponent(hit.conversationId)}?m=${encodeURIComponent(hit.messageId)}`,
            },
            h(
              'div',
              { class: 'hit-head' },
              h('strong', {}, hit.title),
              h('span', { class: `source source-${hit.source}` }, hit.source),
              h('span', { class: 'role' }, hit.role),
              h('time', {}, formatDate(hit.createdAt)),
            ),
            snippet(hit.snippet),
          ),
        ),
      );
    } catch (error) {
      if ((error as Error).name !== 'AbortError') replace(results, errorBox(error));
    }
  };
  const soon = (): void => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => void run(), 200);
  };
  input.addEventListener('input', soon);
  for (const field of [source, role, since, until])
    field.addEventListener('change', () => void run());
  replace(
    view,
    h('h1', {}, 'Search'),
    h(
      'div',
      { class: 'filters' },
      input,
      source,
      role,
      h('label', {}, 'From ', since),
      h('label', {}, 'before ', until),
    ),
    results,
  );
  input.focus();
  await run();
}
