import type cytoscape from 'cytoscape';
import { KINDS } from './graph-tree.js';
import { h } from './dom.js';

/** The page's palette as the canvas needs it (Cytoscape draws on a canvas: no CSS reaches it). */
function palette(): { fg: string; muted: string; line: string; accent: string; bg: string } {
  const css = getComputedStyle(document.documentElement);
  const read = (name: string, fallback: string): string =>
    css.getPropertyValue(name).trim() || fallback;
  return {
    fg: read('--fg', '#1f2328'),
    muted: read('--muted', '#59636e'),
    line: read('--line', '#d1d9e0'),
    accent: read('--accent', '#2f55d4'),
    bg: read('--bg', '#fff'),
  };
}

/** A node's label size at zoom 1: a graph opens at zoom 1 or more (see graph-view.ts). */
const LABEL_PX = 12;

/**
 * Nodes coloured by kind, labelled under them; the shown thread drawn strong, other branches
 * dimmed, a fork as a diamond with a ring; edge labels only when asked for (the toggle) or
 * hovered; labels not drawn when zoomed out so far they could not be read (which also keeps
 * panning smooth at hundreds of nodes).
 */
export function graphStyle(): cytoscape.StylesheetJson {
  const p = palette();
  return [
    {
      selector: 'node',
      style: {
        label: 'data(caption)',
        'font-size': LABEL_PX,
        color: p.fg,
        'text-wrap': 'wrap',
        'text-max-width': '130px',
        'text-valign': 'bottom',
        'text-margin-y': 4,
        'text-background-color': p.bg,
        'text-background-opacity': 0.85,
        'text-background-padding': '1px',
        'min-zoomed-font-size': 7,
        width: 20,
        height: 20,
        'border-width': 1,
        'border-color': p.bg,
      },
    },
    ...KINDS.map((k) => ({
      selector: `node.kind-${k.kind}`,
      style: { 'background-color': k.color },
    })),
    { selector: 'node.kind-Conversation', style: { shape: 'round-rectangle', width: 28 } },
    { selector: 'node.alternative', style: { opacity: 0.45 } },
    {
      selector: 'node.fork',
      style: {
        shape: 'diamond',
        width: 28,
        height: 28,
        'border-width': 3,
        'border-color': p.accent,
      },
    },
    { selector: 'node.thread', style: { 'border-width': 2, 'border-color': p.fg } },
    {
      selector: 'node.fork.thread',
      style: { 'border-width': 3, 'border-color': p.accent },
    },
    {
      selector: 'node.focus',
      style: { 'border-width': 4, 'border-color': '#e03131', width: 28, height: 28 },
    },
    { selector: 'node:selected', style: { 'overlay-opacity': 0.2, 'overlay-color': p.accent } },
    {
      selector: 'edge',
      style: {
        width: 1.2,
        'curve-style': 'bezier',
        'target-arrow-shape': 'triangle',
        'arrow-scale': 0.7,
        'line-color': p.line,
        'target-arrow-color': p.line,
        'font-size': 9,
        color: p.muted,
        'text-background-color': p.bg,
        'text-background-opacity': 0.85,
        'min-zoomed-font-size': 7,
      },
    },
    { selector: 'edge.implied', style: { display: 'none' } },
    {
      selector: 'edge.thread',
      style: { 'line-color': p.accent, 'target-arrow-color': p.accent, width: 2.5 },
    },
    { selector: 'edge.alternative', style: { 'line-style': 'dashed', opacity: 0.6 } },
    { selector: 'edge.labelled, edge.hover', style: { label: 'data(kind)' } },
  ];
}

/** The legend: one swatch a kind of node, and what the fork and the dimmed nodes mean. */
export function graphLegend(present: Set<string>): HTMLElement {
  return h(
    'ul',
    { class: 'legend graph-legend', id: 'graph-legend', 'aria-label': 'Legend' },
    ...KINDS.filter((k) => present.has(k.kind)).map((k) =>
      h('li', {}, h('span', { class: 'swatch', style: `background:${k.color}` }), k.name),
    ),
    h('li', {}, h('span', { class: 'swatch swatch-fork' }), 'Fork (several replies)'),
    h('li', {}, h('span', { class: 'swatch swatch-dim' }), 'Branch not shown'),
  );
}
