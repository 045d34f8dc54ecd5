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
  replace(
    view,
    h(
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
        h(
          'button',
          { type: 'button', id: 'graph-fit', onclick: () => cy.fit(undefined, 30) },
          'Fit',
        ),
      ),
    ),
    h('div', { class: 'graph-layout' }, canvas, details),
  );
  const cy = cytoscape({
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
    style: [
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
    ],
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
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  cy.on('tap', 'node', (event) => {
    const node = byId.get((event.target as cytoscape.NodeSingular).id());
    if (!node) return;
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
            typeof v === 'string'
              ? v.length > 600
                ? `${v.slice(0, 600)}…`
                : v
              : JSON.stringify(v),
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
  });
  cy.on('dbltap', 'node', (event) => {
    const node = byId.get((event.target as cytoscape.NodeSingular).id());
    if (node?.label === 'Message' && conversation)
      location.hash = `#/c/${encodeURIComponent(conversation.id)}?m=${encodeURIComponent(node.id)}`;
  });
  // For tests and curious people: the drawn graph.
  (window as unknown as { chatgraphGraph?: cytoscape.Core }).chatgraphGraph = cy;
}
