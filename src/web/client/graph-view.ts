import cytoscape from 'cytoscape';
import { get, type GraphView } from './api.js';
import { h, hashParams, replace } from './dom.js';

const COLORS: Record<string, string> = {
  Conversation: '#3b5bdb',
  Message: '#868e96',
  Document: '#0ca678',
  ToolCall: '#f08c00',
  DecisionTrace: '#ae3ec9',
  TraceStep: '#be4bdb',
  File: '#1098ad',
  Project: '#5c940d',
  GitBranch: '#74b816',
  Import: '#495057',
};

type GraphNode = GraphView['nodes'][number];

// Node colours by label; the focus (the message the graph was opened around) is ringed in red.
const STYLE: cytoscape.StylesheetJson = [
  {
    selector: 'node',
    style: {
      label: 'data(caption)',
      'font-size': 9,
      'text-wrap': 'ellipsis',
      'text-max-width': '120px',
      'text-valign': 'bottom',
      'background-color': (n: cytoscape.NodeSingular) =>
        COLORS[String(n.data('label'))] ?? '#adb5bd',
      width: 18,
      height: 18,
    },
  },
  {
    selector: 'node.focus',
    style: { 'border-width': 4, 'border-color': '#e03131', width: 26, height: 26 },
  },
  { selector: 'node:selected', style: { 'border-width': 3, 'border-color': '#000' } },
  {
    selector: 'edge',
    style: {
      width: 1.2,
      'curve-style': 'bezier',
      'target-arrow-shape': 'triangle',
      'arrow-scale': 0.7,
      'line-color': '#ced4da',
      'target-arrow-color': '#ced4da',
      label: 'data(kind)',
      'font-size': 7,
      color: '#868e96',
    },
  },
  {
    selector: 'edge[kind = "NEXT"]',
    style: { 'line-color': '#3b5bdb', 'target-arrow-color': '#3b5bdb', width: 2 },
  },
];

/** The title, the counts, and the links to read the conversation and to fit the drawing. */
function graphHead(
  graph: GraphView,
  id: string,
  conversation: GraphNode | undefined,
  fit: () => void,
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
    ),
  );
}

/** Draws the nodes and edges into the canvas, laid out from the conversation downwards. */
function drawGraph(
  canvas: HTMLElement,
  graph: GraphView,
  conversation: GraphNode | undefined,
): cytoscape.Core {
  return cytoscape({
    container: canvas,
    elements: [
      ...graph.nodes.map((n) => ({
        data: { id: n.id, label: n.label, caption: n.caption },
        classes: n.id === graph.focus ? 'focus' : '',
      })),
      ...graph.edges.map((e) => ({
        data: { id: e.id, source: e.from, target: e.to, kind: e.kind },
      })),
    ],
    style: STYLE,
    layout: {
      name: 'breadthfirst',
      directed: true,
      roots: conversation ? [conversation.id] : undefined,
      spacingFactor: 1.1,
      padding: 20,
    } as cytoscape.LayoutOptions,
    wheelSensitivity: 0.3,
    minZoom: 0.05,
    maxZoom: 4,
  });
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
  const graph = await get<GraphView>(
    `/api/graph/${encodeURIComponent(id)}${focus ? `?message=${encodeURIComponent(focus)}` : ''}`,
  );
  const canvas = h('div', { class: 'graph-canvas', id: 'graph-canvas' });
  const details = h(
    'aside',
    { class: 'graph-details', id: 'graph-details' },
    h('p', { class: 'empty' }, 'Click a node to see it; double-click a message to read it.'),
  );
  const conversation = graph.nodes.find((n) => n.label === 'Conversation');
  // The Fit button is drawn before the graph exists (the canvas must be in the page first);
  // it is clicked only after.
  const fit = (): void => {
    cy.fit(undefined, 30);
  };
  replace(
    view,
    graphHead(graph, id, conversation, fit),
    h('div', { class: 'graph-layout' }, canvas, details),
  );
  const cy = drawGraph(canvas, graph, conversation);
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
