import cytoscape from 'cytoscape';
import dagre from 'cytoscape-dagre';
import { get, type GraphView } from './api.js';
import { graphView } from './answers.js';
import { h, hashParams, replace } from './dom.js';
import { graphLegend, graphStyle } from './graph-style.js';
import { kindOf, treeElements } from './graph-tree.js';

type GraphNode = GraphView['nodes'][number];

cytoscape.use(dagre);

/** The title, the counts, and the links to read the conversation and to fit the drawing. */
function graphHead(
  graph: GraphView,
  id: string,
  conversation: GraphNode | undefined,
  fit: () => void,
  toggleLabels: (event: Event) => void,
): HTMLElement {
  return h(
    'div',
    { class: 'conversation-head' },
    h('h1', {}, `Graph: ${conversation?.caption ?? id}`),
    h(
      'p',
      { class: 'meta' },
      `${graph.nodes.length} nodes, ${graph.edges.length} edges`,
      graph.omitted > 0
        ? ` (${graph.omitted} further nodes not drawn: open it around a message)`
        : '',
      ' · ',
      h('a', { href: `#/c/${encodeURIComponent(conversation?.id ?? id)}` }, 'Read it'),
      ' · ',
      h('button', { type: 'button', id: 'graph-fit', onclick: fit }, 'Fit'),
      ' ',
      h(
        'label',
        { class: 'graph-toggle' },
        h('input', { type: 'checkbox', id: 'graph-edge-labels', onchange: toggleLabels }),
        ' Edge labels',
      ),
    ),
  );
}

/**
 * Draws the conversation top-down by reply (dagre's layered layout, each label's width counted
 * so labels of one layer do not overlap); the edges that repeat the tree are kept but not laid
 * out nor drawn.
 */
function drawGraph(canvas: HTMLElement, graph: GraphView): cytoscape.Core {
  const cy = cytoscape({
    container: canvas,
    elements: treeElements(graph),
    style: graphStyle(),
    wheelSensitivity: 0.3,
    minZoom: 0.02,
    maxZoom: 4,
    // Hundreds of nodes: while panning or zooming, a snapshot moves instead of every label.
    textureOnViewport: graph.nodes.length > 200,
    hideEdgesOnViewport: graph.nodes.length > 400,
  });
  // In one batch: the positions are applied once, not node by node (measured at 710 nodes:
  // 0.8 s instead of 1.7 to 2.7 s on a loaded two-core machine).
  cy.batch(() => {
    cy.elements()
      .not('.implied')
      .layout({
        name: 'dagre',
        rankDir: 'TB',
        nodeSep: 24,
        rankSep: 46,
        edgeSep: 8,
        nodeDimensionsIncludeLabels: true,
        fit: false,
        padding: 20,
      } as cytoscape.LayoutOptions)
      .run();
  });
  fitTop(cy);
  return cy;
}

// The zoom a graph opens at: never below the one that draws labels at their size (a smaller
// one drew them at 7 px), never so far in that a few nodes fill the screen.
const OPEN_ZOOM = { min: 1, max: 1.5 };

// A conversation that fits at a readable size is fitted; a longer one starts readable at its top
// (Fit shows it whole).
function fitTop(cy: cytoscape.Core): void {
  cy.fit(undefined, 20);
  if (cy.zoom() > OPEN_ZOOM.max)
    cy.zoom({ level: OPEN_ZOOM.max, renderedPosition: { x: cy.width() / 2, y: cy.height() / 2 } });
  if (cy.zoom() >= OPEN_ZOOM.min) return;
  const box = cy.elements().boundingBox();
  const zoom = OPEN_ZOOM.min;
  cy.zoom(zoom);
  cy.pan({ x: cy.width() / 2 - ((box.x1 + box.x2) / 2) * zoom, y: 20 - box.y1 * zoom });
}

/** A clicked node's properties (long strings cut at 600 characters) and, for a message, a link. */
function showNodeDetails(
  details: HTMLElement,
  node: GraphNode,
  conversation: GraphNode | undefined,
): void {
  replace(
    details,
    h('h2', {}, node.label),
    h(
      'dl',
      {},
      h('dt', {}, 'id'),
      h('dd', {}, node.id),
      ...Object.entries(node.properties).flatMap(([k, v]) => [
        h('dt', {}, k),
        h(
          'dd',
          {},
          typeof v === 'string' ? (v.length > 600 ? `${v.slice(0, 600)}…` : v) : JSON.stringify(v),
        ),
      ]),
    ),
    node.label === 'Message' && conversation
      ? h(
          'a',
          { href: `#/c/${encodeURIComponent(conversation.id)}?m=${encodeURIComponent(node.id)}` },
          'Open in the conversation',
        )
      : null,
  );
}

/** The neighbourhood of a conversation (or around a message) drawn with Cytoscape.js. */
export async function showGraph(view: HTMLElement, id: string): Promise<void> {
  const focus = hashParams().get('message');
  const graph = await get(
    `/api/graph/${encodeURIComponent(id)}${focus ? `?message=${encodeURIComponent(focus)}` : ''}`,
    graphView,
  );
  const canvas = h('div', { class: 'graph-canvas', id: 'graph-canvas' });
  const details = h(
    'aside',
    { class: 'graph-details', id: 'graph-details' },
    h('p', { class: 'empty' }, 'Click a node to see it; double-click a message to read it.'),
  );
  const conversation = graph.nodes.find((n) => n.label === 'Conversation');
  // The Fit button and the toggle are drawn before the graph exists (the canvas must be in the
  // page first); they are used only after.
  const fit = (): void => {
    cy.fit(undefined, 30);
  };
  const toggleLabels = (event: Event): void => {
    const on = event.target instanceof HTMLInputElement && event.target.checked;
    cy.edges().toggleClass('labelled', on);
  };
  replace(
    view,
    graphHead(graph, id, conversation, fit, toggleLabels),
    graphLegend(new Set(graph.nodes.map(kindOf))),
    h('div', { class: 'graph-layout' }, canvas, details),
  );
  const cy = drawGraph(canvas, graph);
  cy.on('mouseover', 'edge', (event) => {
    (event.target as cytoscape.EdgeSingular).addClass('hover');
  });
  cy.on('mouseout', 'edge', (event) => {
    (event.target as cytoscape.EdgeSingular).removeClass('hover');
  });
  restyleOnThemeChange(cy);
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  cy.on('tap', 'node', (event) => {
    const node = byId.get((event.target as cytoscape.NodeSingular).id());
    if (node) showNodeDetails(details, node, conversation);
  });
  cy.on('dbltap', 'node', (event) => {
    const node = byId.get((event.target as cytoscape.NodeSingular).id());
    if (node?.label === 'Message' && conversation)
      location.hash = `#/c/${encodeURIComponent(conversation.id)}?m=${encodeURIComponent(node.id)}`;
  });
  // For tests and curious people: the drawn graph.
  (window as unknown as { chatgraphGraph?: cytoscape.Core }).chatgraphGraph = cy;
}

// The canvas takes its colours when drawn: a change of theme draws them again.
function restyleOnThemeChange(cy: cytoscape.Core): void {
  const restyle = (): void => {
    if (cy.container()?.isConnected) cy.style(graphStyle());
    else stop();
  };
  const observer = new MutationObserver(restyle);
  const media = window.matchMedia('(prefers-color-scheme: dark)');
  const stop = (): void => {
    observer.disconnect();
    media.removeEventListener('change', restyle);
  };
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  media.addEventListener('change', restyle);
}
