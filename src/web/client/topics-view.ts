import cytoscape from 'cytoscape';
import type { TopicMapView } from './api.js';
import { get } from './api.js';
import { topicMap } from './answers.js';
import { count, h, replace } from './dom.js';

type Cluster = TopicMapView['clusters'][number];

const COLORS = ['#3b5bdb', '#0ca678', '#f08c00', '#ae3ec9', '#e03131', '#1098ad', '#5c940d'];

/** The page that says how to get a map when the store has no vectors yet. */
function notEmbedded(): HTMLElement {
  return h(
    'div',
    { class: 'topics-empty', id: 'topics-empty' },
    h(
      'p',
      {},
      'The map of topics groups conversations by meaning, so it needs their vectors. Make them once with:',
    ),
    h('pre', {}, h('code', {}, 'chatgraph embed')),
    h('p', {}, 'then open this page again.'),
  );
}

// A title cut to fit a bubble's label or a button.
function short(title: string, most = 42): string {
  const flat = title.replace(/\s+/g, ' ').trim();
  return flat.length > most ? `${flat.slice(0, most - 1)}…` : flat;
}

/** What a topic is called: its most central conversation's title, else its words. */
function titleOf(cluster: Cluster): string {
  return cluster.central?.title.trim() || cluster.name;
}

/** A cluster's conversations, as links to read them. */
function showCluster(panel: HTMLElement, cluster: Cluster): void {
  replace(
    panel,
    h('h2', {}, titleOf(cluster)),
    cluster.words.length > 0
      ? h('p', { class: 'topic-words' }, `Its words: ${cluster.words.join(' · ')}`)
      : null,
    h(
      'p',
      { class: 'meta' },
      cluster.size === 1 ? '1 conversation' : `${count(cluster.size)} conversations`,
      cluster.size > cluster.conversations.length
        ? ` (the ${count(cluster.conversations.length)} nearest its centre listed)`
        : '',
    ),
    h(
      'ul',
      { class: 'topic-conversations' },
      ...cluster.conversations.map((c) =>
        h(
          'li',
          {},
          h('a', { href: `#/c/${encodeURIComponent(c.id)}` }, c.title || c.id),
          ' ',
          h('span', { class: 'source' }, c.source),
        ),
      ),
    ),
  );
}

/** The clusters as bubbles sized by their conversations, each tied to its nearest cluster. */
function drawMap(canvas: HTMLElement, clusters: Cluster[], open: (c: Cluster) => void): void {
  const css = getComputedStyle(document.documentElement);
  const fg = css.getPropertyValue('--fg').trim() || '#1f2328';
  const line = css.getPropertyValue('--line').trim() || '#d1d9e0';
  const biggest = Math.max(1, ...clusters.map((c) => c.size));
  const edges = new Set<string>();
  const cy = cytoscape({
    container: canvas,
    elements: [
      ...clusters.map((c, i) => ({
        data: {
          id: `t${String(c.id)}`,
          // The title alone: the words are in the buttons above, and a long label is unreadable.
          name: `${short(titleOf(c), 32)} (${String(c.size)})`,
          size: 30 + 70 * Math.sqrt(c.size / biggest),
          color: COLORS[i % COLORS.length] ?? '#999',
        },
      })),
      ...clusters.flatMap((c) => {
        if (!c.nearest || !clusters.some((o) => o.id === c.nearest?.id)) return [];
        const key = [c.id, c.nearest.id].sort().join('-');
        if (edges.has(key)) return [];
        edges.add(key);
        return [
          {
            data: { id: `n${key}`, source: `t${String(c.id)}`, target: `t${String(c.nearest.id)}` },
          },
        ];
      }),
    ],
    style: [
      {
        selector: 'node',
        style: {
          label: 'data(name)',
          width: 'data(size)',
          height: 'data(size)',
          'background-color': 'data(color)',
          'background-opacity': 1,
          color: fg,
          'font-size': 14,
          'text-valign': 'bottom',
          'text-wrap': 'wrap',
          'text-max-width': '140px',
        },
      },
      { selector: 'edge', style: { 'line-color': line, width: 2 } },
    ],
    layout: {
      name: 'cose',
      animate: false,
      padding: 30,
      nodeDimensionsIncludeLabels: true,
    } as cytoscape.LayoutOptions,
    userZoomingEnabled: true,
    wheelSensitivity: 0.3,
  });
  // Fitted into a phone's width the map is drawn small: its labels keep 12 px on screen.
  const zoom = cy.zoom();
  if (zoom < 1)
    cy.style()
      .selector('node')
      .style({ 'font-size': 12 / zoom, 'text-max-width': `${String(Math.round(120 / zoom))}px` })
      .update();
  cy.on('tap', 'node', (event) => {
    const id = Number((event.target as cytoscape.NodeSingular).id().slice(1));
    const cluster = clusters.find((c) => c.id === id);
    if (cluster) open(cluster);
  });
  (window as unknown as { chatgraphTopics?: cytoscape.Core }).chatgraphTopics = cy;
}

/**
 * The map of topics: conversations clustered by meaning, each cluster named by its most central
 * conversation's title and its most distinctive words.
 */
export async function showTopics(view: HTMLElement): Promise<void> {
  const map = await get('/api/topics', topicMap);
  if (!map.embedded) {
    replace(view, h('h1', {}, 'Topics'), notEmbedded());
    return;
  }
  const panel = h(
    'section',
    { class: 'topic-panel', id: 'topic-panel', 'aria-live': 'polite' },
    h('p', { class: 'empty' }, 'Pick a topic to list its conversations.'),
  );
  const open = (cluster: Cluster): void => {
    showCluster(panel, cluster);
  };
  const canvas = h('div', { class: 'topic-canvas', id: 'topic-canvas' });
  replace(
    view,
    h('h1', {}, 'Topics'),
    h(
      'p',
      { class: 'meta' },
      `${count(map.conversations)} conversations in ${String(map.clusters.length)} topics, by the vectors of ${map.model ?? 'the model'}`,
      map.capped ? ' (the latest ones only)' : '',
    ),
    h(
      'ul',
      { class: 'topic-list', id: 'topic-list' },
      ...map.clusters.map((c) =>
        h(
          'li',
          {},
          h(
            'button',
            {
              type: 'button',
              class: 'topic',
              'data-topic': String(c.id),
              onclick: () => {
                open(c);
              },
            },
            h('span', { class: 'topic-title' }, short(titleOf(c))),
            c.central && c.words.length > 0
              ? h('span', { class: 'topic-words' }, c.words.join(' · '))
              : null,
            h('span', { class: 'count' }, count(c.size)),
          ),
        ),
      ),
    ),
    h('div', { class: 'topic-layout' }, canvas, panel),
  );
  drawMap(canvas, map.clusters, open);
}
