import { get, type ConversationSearchResult, type SearchHit } from './api.js';
import { conversationSearchResult, sourceList } from './answers.js';
import { count, errorBox, h, hashParams, replace } from './dom.js';
import { foldButton, sayFiltersSet } from './fold-filters.js';
import { conversationCard, hitLink, snippet } from './search-hit.js';

/** Conversations per page of results (More adds the next). */
const PAGE = 30;

const MODES: [string, string][] = [
  ['', 'Best (words and meaning)'],
  ['hybrid', 'Words and meaning'],
  ['semantic', 'Meaning only'],
  ['keyword', 'Words only'],
];

/** What a result says before its conversations: how it ran, what it found, any hint or notice. */
function summaryOf(result: ConversationSearchResult): HTMLElement[] {
  const how =
    result.byWordsOnly === true
      ? 'by words only'
      : result.mode === 'semantic'
        ? 'by meaning'
        : result.mode === 'hybrid'
          ? 'by words and meaning'
          : 'by words';
  const out: HTMLElement[] = [];
  if (result.conversations.length === 0) {
    out.push(h('p', { class: 'summary' }, `No matches (searched ${how}).`));
    if ((result.belowFloor ?? 0) > 0) out.push(h('p', { class: 'summary' }, `${result.summary}.`));
    if (result.hint) out.push(hintLine(result.hint));
    if (result.nearest && result.nearest.length > 0)
      out.push(h('p', { class: 'summary' }, 'Nearest in meaning:'), ...result.nearest.map(hitLink));
  } else
    out.push(
      h(
        'p',
        { class: 'summary', 'data-mode': result.mode },
        `${count(result.offset + 1)}–${count(result.offset + result.conversations.length)}, searched ${how}: ${result.summary}.`,
      ),
      // Answers by meaning alone: the words matched nothing, and a near word may have.
      ...(result.hint ? [hintLine(result.hint)] : []),
    );
  if (result.notice) out.push(h('p', { class: 'notice' }, result.notice));
  return out;
}

/** "Did you mean …?", its words a link to that search with the same mode and filters. */
function hintLine(hint: string): HTMLElement {
  const params = hashParams();
  params.set('q', hint);
  return h(
    'p',
    { class: 'hint' },
    'Did you mean ',
    h('a', { href: `#/search?${params.toString()}` }, hint),
    '?',
  );
}

/** A memory matching the words: it opens the Memories page on them (its source is linked there). */
function memoryHit(hit: SearchHit, q: string): HTMLElement {
  return h(
    'a',
    { class: 'hit hit-memory', href: `#/memories?query=${encodeURIComponent(q)}` },
    h(
      'div',
      { class: 'hit-head' },
      h('strong', {}, 'Memory'),
      h('span', { class: 'memory-type' }, hit.memory?.type ?? ''),
      hit.title ? h('span', {}, `from ${hit.title}`) : null,
      h('time', {}, hit.createdAt.slice(0, 10)),
    ),
    snippet(hit.snippet),
  );
}

/** The search box and its filters, filled from the address. */
function searchFields(params: URLSearchParams, sources: string[]) {
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
  const date = (name: string, label: string): HTMLInputElement =>
    h('input', { type: 'date', name, value: params.get(name) ?? '', 'aria-label': label });
  const mode = h(
    'select',
    { name: 'mode', id: 'search-mode', 'aria-label': 'Search by' },
    ...MODES.map(([value, label]) =>
      h('option', { value, selected: (params.get('mode') ?? '') === value }, label),
    ),
  );
  return {
    input,
    source,
    role,
    since: date('since', 'From'),
    until: date('until', 'Before'),
    mode,
  };
}

/**
 * The summary, a card per conversation, then the memories matching well enough; a full page
 * offers More, which adds the next conversations.
 */
function showResults(
  results: HTMLElement,
  result: ConversationSearchResult,
  query: URLSearchParams,
  q: string,
): void {
  const more = h('button', { type: 'button', class: 'more' }, 'More');
  const page = async (offset: number): Promise<void> => {
    const next = new URLSearchParams(query);
    next.set('offset', String(offset));
    const further = await get(
      `/api/search/conversations?${next.toString()}`,
      conversationSearchResult,
    );
    more.before(...further.conversations.map(conversationCard));
    if (!further.more) more.remove();
    else more.onclick = () => void page(offset + further.conversations.length);
  };
  more.onclick = () => void page(result.conversations.length);
  const memories = result.memories.map((m) => memoryHit(m, q));
  replace(
    results,
    ...summaryOf(result),
    ...result.conversations.map(conversationCard),
    ...(result.more ? [more] : []),
    ...(memories.length > 0
      ? [h('h2', { class: 'memories-heading' }, 'Memories'), ...memories]
      : []),
  );
}

/** Search as you type: a card per conversation, its best passage opening it at the message. */
export async function showSearch(view: HTMLElement): Promise<void> {
  const params = hashParams();
  const sources = await get('/api/sources', sourceList);
  const results = h('div', { class: 'results', id: 'search-results' });
  const { input, source, role, since, until, mode } = searchFields(params, sources);
  let controller: AbortController | undefined;
  let timer: number | undefined;

  const run = async (): Promise<void> => {
    controller?.abort();
    const q = input.value.trim();
    const query = new URLSearchParams();
    if (q) query.set('q', q);
    for (const field of [mode, source, role, since, until])
      if (field.value) query.set(field.name, field.value);
    // Keep the search in the address without re-rendering the page.
    history.replaceState(null, '', `#/search?${query.toString()}`);
    if (!q) {
      replace(results, h('p', { class: 'empty' }, 'Type to search every message.'));
      return;
    }
    controller = new AbortController();
    try {
      query.set('limit', String(PAGE));
      const result = await get(
        `/api/search/conversations?${query.toString()}`,
        conversationSearchResult,
        controller.signal,
      );
      showResults(results, result, query, q);
    } catch (error) {
      if ((error as Error).name !== 'AbortError') replace(results, errorBox(error));
    }
  };
  const soon = (): void => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => void run(), 200);
  };
  input.addEventListener('input', soon);
  for (const field of [mode, source, role, since, until])
    field.addEventListener('change', () => void run());
  // On a phone the box and the mode stay out; the source, role and dates fold behind a button
  // (they took a third of the screen above the answers).
  const filters = h('div', { class: 'filters foldable', id: 'search-filters' });
  const narrowing = [source, role, since, until];
  const set = (): number => narrowing.filter((field) => field.value !== '').length;
  const toggle = foldButton(filters, 'search-more-filters', set());
  for (const field of narrowing)
    field.addEventListener('change', () => {
      sayFiltersSet(toggle, set());
    });
  filters.append(
    input,
    mode,
    toggle,
    h(
      'div',
      { class: 'more-filters', id: 'search-more-filters' },
      source,
      role,
      h('label', {}, 'From ', since),
      h('label', {}, 'before ', until),
    ),
  );
  replace(view, h('h1', {}, 'Search'), filters, results);
  input.focus();
  await run();
}
