import { errorBox, replace } from './dom.js';
import { showConversation } from './conversation-view.js';
import { showCypher } from './cypher-view.js';
import { showGraph } from './graph-view.js';
import { showImport } from './import-view.js';
import { showList } from './list-view.js';
import { showOverview } from './overview-view.js';
import { showSearch } from './search-view.js';

/** What each route draws into the view; the hash is the address (`#/c/<id>?m=<message>`). */
type View = (view: HTMLElement, arg: string | undefined) => Promise<void> | void;

const ROUTES: [RegExp, string, View][] = [
  [/^\/c\/([^?]+)/, 'list', (v, id) => showConversation(v, id ?? '')],
  [/^\/graph\/([^?]+)/, 'list', (v, id) => showGraph(v, id ?? '')],
  [/^\/search/, 'search', (v) => showSearch(v)],
  [/^\/overview/, 'overview', (v) => showOverview(v)],
  [
    /^\/cypher/,
    'cypher',
    (v) => {
      showCypher(v);
    },
  ],
  [
    /^\/import/,
    'import',
    (v) => {
      showImport(v);
    },
  ],
  [/^\/?/, 'list', (v) => showList(v)],
];

let current = 0;

async function render(): Promise<void> {
  const view = document.getElementById('view');
  if (!view) return;
  const path = location.hash.slice(1) || '/';
  const at = ++current;
  for (const [pattern, nav, show] of ROUTES) {
    const match = pattern.exec(path);
    if (!match) continue;
    for (const link of document.querySelectorAll('[data-nav]'))
      link.classList.toggle('active', link.getAttribute('data-nav') === nav);
    replace(view);
    view.dataset.loading = 'true';
    try {
      await show(view, match[1] === undefined ? undefined : decodeURIComponent(match[1]));
    } catch (error) {
      if (at === current) replace(view, errorBox(error));
    } finally {
      if (at === current) delete view.dataset.loading;
    }
    return;
  }
}

window.addEventListener('hashchange', () => void render());
void render();
