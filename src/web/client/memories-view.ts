import { ApiFailure, errorOf, get, post, type MemoryView, type ReviseBody } from './api.js';
import { MEMORY_TYPES, memoryPage, remembered } from './answers.js';
import type { Answer } from '../api-schema.js';
import { count, errorBox, formatDate, h, hashParams, replace } from './dom.js';
import { renderMarkdown } from './markdown.js';
import { snippet } from './search-hit.js';

async function send(method: 'PUT' | 'DELETE', path: string, body?: ReviseBody): Promise<void> {
  const response = await fetch(path, {
    method,
    ...(body !== undefined
      ? { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }
      : {}),
  });
  if (!response.ok) {
    const text = await response.text();
    throw new ApiFailure(response.status, errorOf(text) ?? text.trim());
  }
}

/** What the write did to a signed bundle's signature, as the CLI says it on stderr. */
const signatureLine = (n: Answer<'remember'>['notes'][number]): string =>
  n.level === 'warning'
    ? `warning: the bundle's signature fails: ${n.file ?? ''}${n.record ? ` ${n.record}` : ''}: ${n.message}`
    : `note: ${n.message}`;

const tagsOf = (text: string): string[] =>
  text
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);

function typeSelect(name: string, selected: string, any: boolean): HTMLSelectElement {
  return h(
    'select',
    { name, 'aria-label': 'Type' },
    any ? h('option', { value: '' }, 'Any type') : null,
    ...MEMORY_TYPES.map((t) => h('option', { value: t, selected: t === selected }, t)),
  );
}

// How a relation reads from this memory: `out` "this supports that", `in` "that supports this".
const RELATION_WORDS: Record<string, { out: string; in: string }> = {
  supports: { out: 'supports', in: 'supported by' },
  contradicts: { out: 'contradicts', in: 'contradicted by' },
  extends: { out: 'extends', in: 'extended by' },
  supersedes: { out: 'replaces', in: 'replaced by' },
  related_to: { out: 'related to', in: 'related to' },
  derived_from: { out: 'derived from', in: 'source of' },
};

/** A memory's relations: each the type and the other memory's text, linked to it in the list. */
function relationList(memory: MemoryView): HTMLElement | null {
  const relations = memory.relations ?? [];
  if (relations.length === 0) return null;
  return h(
    'ul',
    { class: 'memory-relations', 'aria-label': 'Related memories' },
    ...relations.map((r) =>
      h(
        'li',
        { class: `memory-relation memory-relation-${r.type}` },
        h(
          'span',
          { class: 'memory-relation-type' },
          RELATION_WORDS[r.type]?.[r.direction] ?? r.type,
        ),
        ' ',
        h(
          'a',
          {
            class: `memory-relation-link memory-relation-${r.status}`,
            href: `#/memories?all=1&show=${encodeURIComponent(r.memoryId)}`,
            'data-memory': r.memoryId,
          },
          r.content,
        ),
        r.status !== 'active' ? h('span', { class: 'memory-status' }, ` (${r.status})`) : null,
      ),
    ),
  );
}

/**
 * A memory's text as the conversation pages render a message's Markdown (a project doc's
 * headings and lists kept), its HTML shown as text.
 */
function memoryText(content: string): HTMLElement {
  const rendered = renderMarkdown(content, { htmlAsText: true });
  rendered.classList.add('memory-content');
  return rendered;
}

/** One memory: what it says, where it came from, and Edit and Forget for an active one. */
function memoryItem(memory: MemoryView, reload: () => Promise<void>): HTMLElement {
  const item = h('article', { class: `memory memory-${memory.status}`, 'data-id': memory.id });
  const body = memory.snippet !== undefined ? snippet(memory.snippet) : memoryText(memory.content);
  const source = memory.source
    ? h(
        'a',
        {
          class: 'memory-source',
          href: `#/c/${encodeURIComponent(memory.source.conversationId)}${memory.source.messageId ? `?m=${encodeURIComponent(memory.source.messageId)}` : ''}`,
        },
        `from ${memory.source.title ?? memory.source.conversationId}`,
      )
    : null;
  const fail = (error: unknown): void => {
    item.append(errorBox(error));
  };
  const edit = h('button', { type: 'button', class: 'memory-edit' }, 'Edit');
  const forget = h('button', { type: 'button', class: 'memory-forget' }, 'Forget');
  edit.onclick = () => {
    const text = h('textarea', { class: 'memory-edit-text', 'aria-label': 'Memory' });
    text.value = memory.content;
    const save = h('button', { type: 'button', class: 'memory-save' }, 'Save');
    save.onclick = () =>
      void send('PUT', `/api/memories/${encodeURIComponent(memory.id)}`, {
        content: text.value,
      }).then(reload, fail);
    body.replaceWith(h('div', { class: 'memory-editor' }, text, save));
    edit.remove();
    text.focus();
  };
  forget.onclick = () => {
    if (!window.confirm('Forget this memory? It is kept in the bundle, marked retracted.')) return;
    void send('DELETE', `/api/memories/${encodeURIComponent(memory.id)}`).then(reload, fail);
  };
  replace(
    item,
    h(
      'div',
      { class: 'memory-head' },
      h('span', { class: 'memory-type' }, memory.type),
      ...memory.tags.map((t) => h('span', { class: 'memory-tag' }, `#${t}`)),
      memory.status !== 'active' ? h('span', { class: 'memory-status' }, memory.status) : null,
      h('time', {}, formatDate(memory.createdAt)),
    ),
    body,
    source,
    relationList(memory),
    memory.status === 'active' ? h('div', { class: 'memory-actions' }, edit, forget) : null,
  );
  return item;
}

/** The form that remembers something new (a person's memory), then reloads the list. */
function addForm(load: () => Promise<void>): HTMLElement {
  const content = h('textarea', {
    id: 'memory-new',
    placeholder: 'Something to remember…',
    'aria-label': 'New memory',
  });
  const newType = typeSelect('new-type', 'fact', false);
  const tags = h('input', {
    type: 'text',
    id: 'memory-new-tags',
    placeholder: 'tags, comma separated',
    'aria-label': 'Tags',
  });
  const add = h('button', { type: 'button', id: 'memory-remember' }, 'Remember');
  const addError = h('div', { class: 'memory-add-error' });
  // Whether the new memory is found by meaning at once, or after `chatgraph embed`.
  const addNote = h('div', { class: 'memory-add-note', id: 'memory-add-note' });
  add.onclick = () => {
    replace(addError);
    replace(addNote);
    void post(
      '/api/memories',
      { content: content.value, type: newType.value, tags: tagsOf(tags.value) },
      remembered,
    ).then(
      async (answer) => {
        content.value = '';
        tags.value = '';
        await load();
        replace(
          addNote,
          answer.vector.note,
          ...answer.notes.map((n) =>
            h('div', { class: 'memory-signature-note' }, signatureLine(n)),
          ),
        );
      },
      (error: unknown) => {
        replace(addError, errorBox(error));
      },
    );
  };
  return h('div', { class: 'memory-add' }, content, newType, tags, add, addError, addNote);
}

/** Brings the memory a relation's link named into view, marked, when the list holds it. */
function showLinked(list: HTMLElement, id: string | null): void {
  if (!id) return;
  const item = [...list.querySelectorAll<HTMLElement>('article.memory')].find(
    (a) => a.dataset.id === id,
  );
  if (!item) return;
  item.classList.add('memory-shown');
  item.scrollIntoView({ block: 'center' });
}

/** The Memories page: search and filter, add, edit (a new memory superseding), forget. */
export async function showMemories(view: HTMLElement): Promise<void> {
  const params = hashParams();
  const list = h('div', { class: 'results', id: 'memory-list' });
  const query = h('input', {
    type: 'search',
    name: 'query',
    id: 'memory-query',
    placeholder: 'Search memories…',
    value: params.get('query') ?? '',
    autocomplete: 'off',
    'aria-label': 'Search memories',
  });
  const type = typeSelect('type', params.get('type') ?? '', true);
  const history = h('input', { type: 'checkbox', name: 'all', checked: params.get('all') === '1' });
  const load = async (): Promise<void> => {
    const search = new URLSearchParams();
    if (query.value.trim()) search.set('query', query.value.trim());
    if (type.value) search.set('type', type.value);
    if (history.checked) search.set('all', '1');
    window.history.replaceState(null, '', `#/memories?${search.toString()}`);
    search.set('limit', '200');
    try {
      const page = await get(`/api/memories?${search.toString()}`, memoryPage);
      replace(
        list,
        h(
          'p',
          { class: 'summary' },
          page.total === 0 ? 'No memories match.' : `${count(page.total)} memories`,
        ),
        ...page.items.map((m) => memoryItem(m, load)),
      );
      showLinked(list, params.get('show'));
    } catch (error) {
      replace(list, errorBox(error));
    }
  };
  let timer: number | undefined;
  query.addEventListener('input', () => {
    window.clearTimeout(timer);
    timer = window.setTimeout(() => void load(), 200);
  });
  type.addEventListener('change', () => void load());
  history.addEventListener('change', () => void load());

  replace(
    view,
    h('h1', {}, 'Memories'),
    h(
      'div',
      { class: 'filters' },
      query,
      type,
      h('label', {}, history, ' history (superseded, forgotten)'),
    ),
    addForm(load),
    list,
  );
  await load();
}
