import { errorBox, replace } from './dom.js';
import { showList } from './list-view.js';
import { followChanges } from './live-refresh.js';
import { setUpKeyboard } from './keyboard.js';
import { setUpTheme } from './theme.js';

/** What each route draws into the view; the hash is the address (`#/c/<id>?m=<message>`). */
type View = (view: HTMLElement, arg: string | undefined) => Promise<void> | void;

// Views other than the list load when first opened: the graph library and the Markdown
// renderer are not parsed before the first page of conversations is drawn.
const ROUTES: [RegExp, string, View][] = [
  [
    /^\/c\/([^?]+)/,
    'list',
    async (v, id) => (await import('./conversation-view.js')).showConversation(v, id ?? ''),
  ],
  [
    /^\/graph\/([^?]+)/,
    'list',
    async (v, id) => (await import('./graph-view.js')).showGraph(v, id ?? ''),
  ],
  [/^\/search/, 'search', async (v) => (await import('./search-view.js')).showSearch(v)],
  [/^\/memories/, 'memories', async (v) => (await import('./memories-view.js')).showMemories(v)],
  [/^\/overview/, 'overview', async (v) => (await import('./overview-view.js')).showOverview(v)],
  [/^\/usage/, 'usage', async (v) => (await import('./usage-view.js')).showUsage(v)],
  [/^\/topics/, 'topics', async (v) => (await import('./topics-view.js')).showTopics(v)],
  [
    /^\/cypher/,
    'cypher',
    async (v) => {
      (await import('./cypher-view.js')).showCypher(v);
    },
  ],
  [
    /^\/import/,
    'import',
    async (v) => {
      (await import('./import-view.js')).showImport(v);
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

setUpTheme();
setUpKeyboard();
window.addEventListener('hashchange', () => void render());
void render();
followChanges(render);
