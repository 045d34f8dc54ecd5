import { get, type UsageView } from './api.js';
import { sourceList } from './answers.js';
import { usage as readUsage } from './usage-answer.js';
import { count, h, hashParams, replace } from './dom.js';

type Row = UsageView['rows'][number];

const SVG = 'http://www.w3.org/2000/svg';

/** The mark an estimated row's name ends with, as in `chatgraph usage --estimate`. */
const ESTIMATED = ' ~';

/** A row's model as the chart and the tables name it: marked when estimated. */
function modelOf(r: Row): string {
  return `${r.model ?? 'no model named'}${r.estimated === true ? ESTIMATED : ''}`;
}

function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number>,
  ...children: (SVGElement | string)[]
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  for (const child of children)
    element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  return element;
}

function money(cost: number | null, unpriced: readonly string[]): string {
  if (cost === null) return 'no price';
  const text = cost > 0 && cost < 0.005 ? '<$0.01' : `$${cost.toFixed(2)}`;
  return unpriced.length > 0 ? `${text}+` : text;
}

/** Tokens in a few characters: 12,345, 1.2M. */
function short(n: number): string {
  if (n < 100_000) return count(n);
  const [value, unit] = n < 1e6 ? [n / 1e3, 'K'] : n < 1e9 ? [n / 1e6, 'M'] : [n / 1e9, 'B'];
  return `${value.toFixed(value < 10 ? 2 : value < 100 ? 1 : 0)}${unit}`;
}

const SERIES = 8;

interface Stacks {
  series: string[];
  periods: string[];
  stacks: Map<string, Map<string, number>>;
  highest: number;
}

/** The rows' tokens per period and model: the seven largest models, the rest together. */
function stacked(report: UsageView): Stacks {
  const byModel = new Map<string, number>();
  for (const r of report.rows)
    byModel.set(modelOf(r), (byModel.get(modelOf(r)) ?? 0) + r.total_tokens);
  const ranked = [...byModel.entries()].sort((a, b) => b[1] - a[1]).map(([m]) => m);
  const shown = ranked.length > SERIES ? ranked.slice(0, SERIES - 1) : ranked;
  const seriesOf = (r: Row): string => (shown.includes(modelOf(r)) ? modelOf(r) : 'other models');
  const series = ranked.length > SERIES ? [...shown, 'other models'] : shown;
  const periods = [...new Set(report.rows.map((r) => r.period))].sort();
  const stacks = new Map<string, Map<string, number>>();
  for (const r of report.rows) {
    const stack = stacks.get(r.period) ?? new Map<string, number>();
    stack.set(seriesOf(r), (stack.get(seriesOf(r)) ?? 0) + r.total_tokens);
    stacks.set(r.period, stack);
  }
  const sums = [...stacks.values()].map((s) => [...s.values()].reduce((a, b) => a + b, 0));
  return { series, periods, stacks, highest: Math.max(1, ...sums) };
}

/**
 * Tokens over time stacked by model, as bars in an SVG that scales to the column's width; the
 * tables below give the same numbers as text.
 */
function chart(report: UsageView, columnWidth: number): HTMLElement {
  const { series, periods, stacks, highest } = stacked(report);
  // The drawing's own width follows the column's, so its labels stay readable on a phone.
  const width = Math.round(Math.max(320, Math.min(720, columnWidth)));
  const height = width < 480 ? 200 : 240;
  const top = 12;
  const left = 52;
  const bottom = 24;
  const plotHeight = height - top - bottom;
  const step = (width - left) / Math.max(1, periods.length);
  const bar = Math.max(2, Math.min(48, step * 0.7));
  const plot = svg('svg', {
    viewBox: `0 0 ${String(width)} ${String(height)}`,
    role: 'img',
    'aria-label': `Tokens by ${report.by}, stacked by model: ${periods.length} ${report.by}s, at most ${short(highest)} tokens`,
    class: 'usage-chart',
  });
  for (const fraction of [0, 0.5, 1]) {
    const y = top + plotHeight * (1 - fraction);
    plot.append(
      svg('line', { x1: left, x2: width, y1: y, y2: y, class: 'grid' }),
      svg(
        'text',
        { x: left - 6, y: y + 4, 'text-anchor': 'end', class: 'axis' },
        short(highest * fraction),
      ),
    );
  }
  periods.forEach((period, i) => {
    const x = left + i * step + (step - bar) / 2;
    let y = height - bottom;
    const stack = stacks.get(period);
    series.forEach((name, s) => {
      const value = stack?.get(name) ?? 0;
      if (value <= 0) return;
      const tall = (plotHeight * value) / highest;
      y -= tall;
      plot.append(
        svg(
          'rect',
          { x, y, width: bar, height: Math.max(tall, 0.5), class: `series-${String(s)}` },
          svg('title', {}, `${period} · ${name}: ${count(value)} tokens`),
        ),
      );
    });
    // The first, the last and a few between are named under the axis.
    const every = Math.max(1, Math.ceil(periods.length / (width < 480 ? 3 : 6)));
    if (i % every === 0 || i === periods.length - 1)
      plot.append(
        svg(
          'text',
          { x: x + bar / 2, y: height - 6, 'text-anchor': 'middle', class: 'axis' },
          period,
        ),
      );
  });
  return h(
    'figure',
    { class: 'usage-figure' },
    plot as unknown as HTMLElement,
    h(
      'figcaption',
      {},
      h(
        'ul',
        { class: 'legend' },
        ...series.map((name, s) =>
          h(
            'li',
            {},
            h('span', { class: `swatch series-${String(s)}`, 'aria-hidden': 'true' }),
            name,
          ),
        ),
      ),
    ),
  );
}

/** A table of rows grouped by `key`, most tokens first. */
function table(caption: string, rows: readonly Row[], key: (r: Row) => string): HTMLElement {
  const groups = new Map<
    string,
    { tokens: [number, number, number, number]; cost: number | null; unpriced: Set<string> }
  >();
  for (const r of rows) {
    const name = key(r);
    const g = groups.get(name) ?? { tokens: [0, 0, 0, 0], cost: null, unpriced: new Set<string>() };
    g.tokens[0] += r.input_tokens;
    g.tokens[1] += r.output_tokens;
    g.tokens[2] += r.cache_creation_tokens;
    g.tokens[3] += r.cache_read_tokens;
    if (r.cost_usd !== null) g.cost = (g.cost ?? 0) + r.cost_usd;
    for (const m of r.unpriced_models) g.unpriced.add(m);
    groups.set(name, g);
  }
  const sorted = [...groups.entries()].sort(
    (a, b) => b[1].tokens.reduce((x, y) => x + y, 0) - a[1].tokens.reduce((x, y) => x + y, 0),
  );
  return h(
    'div',
    { class: 'table-scroll', tabindex: 0, role: 'region', 'aria-label': caption },
    h(
      'table',
      { class: 'usage-table' },
      h('caption', {}, caption),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h(
            'th',
            { scope: 'col' },
            caption.replace(/^By /, '').replace(/^\w/, (c) => c.toUpperCase()),
          ),
          ...['Input', 'Output', 'Cache write', 'Cache read', 'Cost'].map((t) =>
            h('th', { scope: 'col', class: 'num' }, t),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        ...sorted.map(([name, g]) =>
          h(
            'tr',
            {},
            h('th', { scope: 'row' }, name),
            ...g.tokens.map((t) => h('td', { class: 'num' }, short(t))),
            h('td', { class: 'num' }, money(g.cost, [...g.unpriced])),
          ),
        ),
      ),
    ),
  );
}

function filterForm(params: URLSearchParams, sources: string[]): HTMLElement {
  const submit = (event: Event): void => {
    event.preventDefault();
    const data = new FormData(event.target as HTMLFormElement);
    const next = new URLSearchParams();
    for (const name of ['source', 'since', 'until', 'by', 'estimate']) {
      const v = data.get(name);
      if (typeof v === 'string' && v !== '' && !(name === 'by' && v === 'day')) next.set(name, v);
    }
    location.hash = `#/usage?${next.toString()}`;
  };
  const date = (name: string, label: string): HTMLElement =>
    h('label', {}, `${label} `, h('input', { name, type: 'date', value: params.get(name) ?? '' }));
  const by = params.get('by') ?? 'day';
  return h(
    'form',
    { class: 'filters', id: 'usage-filters', onsubmit: submit },
    h(
      'select',
      { name: 'source', 'aria-label': 'Source' },
      h('option', { value: '' }, 'All sources'),
      ...sources.map((s) => h('option', { value: s, selected: params.get('source') === s }, s)),
    ),
    date('since', 'From'),
    date('until', 'before'),
    h(
      'select',
      { name: 'by', 'aria-label': 'Group by' },
      ...['day', 'week', 'month'].map((b) =>
        h('option', { value: b, selected: by === b }, `by ${b}`),
      ),
    ),
    // `chatgraph usage --estimate`: its own rows, marked ~, never added to the counted total.
    h(
      'label',
      {
        title:
          'Estimate the tokens of chat exports (which have no counts) from their text length: rows of their own, marked ~',
      },
      h('input', {
        name: 'estimate',
        type: 'checkbox',
        value: '1',
        checked: params.get('estimate') === '1',
      }),
      ' Estimate chat exports’ tokens from their text length',
    ),
    h('button', { type: 'submit' }, 'Filter'),
  );
}

/** The sentences under the tables: how tokens are counted, what has no price, what no count. */
function notesOf(report: UsageView): string[] {
  const { total, estimated } = report;
  return [
    `Each API response counted once. Input is without cache reads; output includes reasoning (${short(total.reasoning_tokens)}). Days in ${report.timeZone}. Prices of ${report.prices.date}: ${report.prices.source}.`,
    ...(report.prices.unpriced_models.length > 0
      ? [
          `No price for ${report.prices.unpriced_models.join(', ')}: tokens counted, cost not guessed (a + marks a cost without them).`,
        ]
      : []),
    ...(estimated ? [`${ESTIMATED.trim()} Estimated rows: ${estimated.method}.`] : []),
    ...report.uncounted.map(
      (u) =>
        `No token counts in ${u.source} (${count(u.conversations)} of ${count(u.of)} conversations${
          u.models.length > 0
            ? `; models: ${u.models
                .slice(0, 5)
                .map((m) => m.model)
                .join(', ')}`
            : ''
        }): ${estimated ? 'estimated in the rows marked ~, not counted' : 'not counted, never guessed (the estimate box above estimates them from text length)'}.`,
    ),
  ];
}

/** The counted tokens and cost, and beside them (never in them) what was estimated. */
function totals(report: UsageView): HTMLElement {
  const { total, estimated } = report;
  return h(
    'div',
    { class: 'totals' },
    h(
      'div',
      { class: 'total' },
      h('strong', { id: 'usage-tokens' }, short(total.total_tokens)),
      ' tokens',
    ),
    h(
      'div',
      { class: 'total' },
      h('strong', { id: 'usage-cost' }, money(total.cost_usd, total.unpriced_models)),
      ' cost (USD)',
    ),
    ...(estimated
      ? [
          h(
            'div',
            { class: 'total estimated' },
            h('strong', { id: 'usage-estimated' }, `~${short(estimated.total.total_tokens)}`),
            ` estimated tokens (${money(estimated.total.cost_usd, estimated.total.unpriced_models)}), not in the total`,
          ),
        ]
      : []),
  );
}

/** Tokens and cost over time stacked by model, and by project and model, with the list's filters. */
export async function showUsage(view: HTMLElement): Promise<void> {
  const params = hashParams();
  const query = new URLSearchParams({ breakdown: '1', by: params.get('by') ?? 'day' });
  for (const name of ['source', 'since', 'until']) {
    const value = params.get(name);
    if (value) query.set(name, value);
  }
  if (params.get('estimate') === '1') query.set('estimate', '1');
  query.set('tz', Intl.DateTimeFormat().resolvedOptions().timeZone);
  const byProject = new URLSearchParams(query);
  byProject.set('by', 'project');
  const [sources, report, projects] = await Promise.all([
    get('/api/sources', sourceList),
    get(`/api/usage?${query.toString()}`, readUsage),
    get(`/api/usage?${byProject.toString()}`, readUsage),
  ]);
  replace(
    view,
    h('h1', {}, 'Usage'),
    filterForm(params, sources),
    totals(report),
    report.rows.length > 0
      ? h(
          'section',
          { id: 'usage-over-time' },
          h('h2', {}, 'Tokens over time'),
          chart(report, view.clientWidth),
        )
      : h('p', { class: 'empty' }, 'No token counts match these filters.'),
    h(
      'div',
      { class: 'columns' },
      h(
        'section',
        {},
        table('By project', projects.rows, (r) =>
          r.estimated === true ? `${r.period}${ESTIMATED}` : r.period,
        ),
      ),
      h('section', {}, table('By model', report.rows, modelOf)),
    ),
    ...notesOf(report).map((n) => h('p', { class: 'usage-note' }, n)),
  );
}
