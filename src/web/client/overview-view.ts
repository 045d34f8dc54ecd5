import { get, type Stats } from './api.js';
import { count, h, replace } from './dom.js';

const SVG = 'http://www.w3.org/2000/svg';
const PALETTE = [
  '#3b5bdb',
  '#f08c00',
  '#0ca678',
  '#ae3ec9',
  '#e03131',
  '#1098ad',
  '#5c940d',
  '#495057',
];

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  if (text !== undefined) element.textContent = text;
  return element;
}

/** Messages per month, one stacked bar a month, one colour a source. */
function monthChart(stats: Stats): Element {
  const months = [
    ...new Set(stats.byMonth.map((r) => r.month).filter((m): m is string => m !== null)),
  ].sort();
  const sources = [...new Set(stats.byMonth.map((r) => r.source))].sort();
  if (months.length === 0) return h('p', { class: 'empty' }, 'No dated messages yet.');
  const totals = new Map<string, number>();
  for (const row of stats.byMonth)
    if (row.month) totals.set(row.month, (totals.get(row.month) ?? 0) + row.messages);
  const max = [...totals.values()].reduce((top, n) => Math.max(top, n), 1);
  const width = Math.max(600, months.length * 18 + 60);
  const height = 260;
  const bar = (width - 60) / months.length;
  const chart = svg('svg', {
    viewBox: `0 0 ${width} ${height}`,
    class: 'month-chart',
    role: 'img',
    'aria-label': 'Messages per month per source',
  });
  chart.append(
    svg('text', { x: 4, y: 14, class: 'axis' }, count(max)),
    svg('line', { x1: 50, y1: 20, x2: 50, y2: height - 30, class: 'axis-line' }),
  );
  months.forEach((month, i) => {
    let y = height - 30;
    for (const [s, source] of sources.entries()) {
      const value =
        stats.byMonth.find((r) => r.month === month && r.source === source)?.messages ?? 0;
      if (value === 0) continue;
      const tall = (value / max) * (height - 50);
      y -= tall;
      const rect = svg('rect', {
        x: 52 + i * bar,
        y,
        width: Math.max(1, bar - 2),
        height: tall,
        fill: PALETTE[s % PALETTE.length] ?? '#999',
      });
      rect.append(svg('title', {}, `${month} · ${source}: ${count(value)} messages`));
      chart.append(rect);
    }
    if (i % Math.ceil(months.length / 12) === 0)
      chart.append(svg('text', { x: 52 + i * bar, y: height - 12, class: 'axis' }, month));
  });
  const legend = h(
    'ul',
    { class: 'legend' },
    ...sources.map((source, s) =>
      h(
        'li',
        {},
        h('span', {
          class: 'swatch',
          style: `background:${PALETTE[s % PALETTE.length] ?? '#999'}`,
        }),
        source,
      ),
    ),
  );
  return h('figure', { class: 'chart' }, chart, legend);
}

function table(headings: string[], rows: (string | number)[][]): HTMLElement {
  return h(
    'table',
    {},
    h('thead', {}, h('tr', {}, ...headings.map((t) => h('th', {}, t)))),
    h(
      'tbody',
      {},
      ...rows.map((r) =>
        h(
          'tr',
          {},
          ...r.map((c) =>
            h(
              'td',
              { class: typeof c === 'number' ? 'num' : undefined },
              typeof c === 'number' ? count(c) : c,
            ),
          ),
        ),
      ),
    ),
  );
}

/** Totals, messages per month per source, top models, roles. */
export async function showOverview(view: HTMLElement): Promise<void> {
  const stats = await get<Stats>('/api/overview');
  replace(
    view,
    h('h1', {}, 'Overview'),
    h(
      'div',
      { class: 'totals' },
      h(
        'div',
        { class: 'total' },
        h('strong', { id: 'total-conversations' }, count(stats.conversations)),
        ' conversations',
      ),
      h(
        'div',
        { class: 'total' },
        h('strong', { id: 'total-messages' }, count(stats.messages)),
        ' messages',
      ),
      h('div', { class: 'total' }, h('strong', {}, count(stats.bySource.length)), ' sources'),
    ),
    h('h2', {}, 'Messages per month'),
    monthChart(stats),
    h(
      'div',
      { class: 'columns' },
      h(
        'section',
        {},
        h('h2', {}, 'Top models'),
        stats.byModel.length > 0
          ? table(
              ['Model', 'Messages'],
              stats.byModel.map((m) => [m.model, m.messages]),
            )
          : h('p', { class: 'empty' }, 'No model names in these exports.'),
      ),
      h(
        'section',
        {},
        h('h2', {}, 'Sources'),
        table(
          ['Source', 'Conversations', 'Messages'],
          stats.bySource.map((s) => [s.source, s.conversations, s.messages]),
        ),
      ),
      h(
        'section',
        {},
        h('h2', {}, 'Roles'),
        table(
          ['Role', 'Messages'],
          stats.byRole.map((r) => [r.role, r.messages]),
        ),
      ),
    ),
  );
}
