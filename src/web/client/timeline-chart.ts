import uPlot from 'uplot';
import type { Stats } from './api.js';
import { count, h } from './dom.js';

const PALETTE = ['#3b5bdb', '#f08c00', '#0ca678', '#ae3ec9', '#e03131', '#1098ad', '#5c940d'];

/** Conversations a month per source, every month between the first and the last one. */
export interface MonthSeries {
  /** The middle of each month, in Unix seconds: the bar stands over its month. */
  times: number[];
  sources: string[];
  /** Per source, per month: the conversations with a message in that month. */
  values: number[][];
}

const HALF_MONTH = 15 * 86_400;

// "2025-03" to the 15th of that month, noon UTC.
const middleOf = (year: number, month: number): number => Date.UTC(year, month, 15, 12) / 1000;

/** The months of the history with the empty ones kept, so that the axis is time. */
export function monthSeries(stats: Stats): MonthSeries {
  const rows = stats.byMonth.filter(
    (r): r is typeof r & { month: string } => r.month !== null && /^\d{4}-\d{2}$/.test(r.month),
  );
  const sources = [...new Set(rows.map((r) => r.source))].sort();
  const index = (month: string): number =>
    Number(month.slice(0, 4)) * 12 + Number(month.slice(5)) - 1;
  const months = rows.map((r) => index(r.month));
  if (months.length === 0) return { times: [], sources, values: [] };
  const first = Math.min(...months);
  const last = Math.max(...months);
  const times: number[] = [];
  for (let m = first; m <= last; m++) times.push(middleOf(Math.floor(m / 12), m % 12));
  const values = sources.map(() => times.map(() => 0));
  for (const row of rows) {
    const line = values[sources.indexOf(row.source)];
    if (line) line[index(row.month) - first] = row.conversations;
  }
  return { times, sources, values };
}

function colours(): { fg: string; line: string } {
  const css = getComputedStyle(document.documentElement);
  return {
    fg: css.getPropertyValue('--muted').trim() || '#59636e',
    line: css.getPropertyValue('--line').trim() || '#d1d9e0',
  };
}

/**
 * uPlot stacks nothing itself: each source's bar is drawn from zero to the total of it and the
 * sources after it, tallest first, so that each colour shows its own share; the legend and the
 * cursor still read each source's own number.
 */
function options(
  series: MonthSeries,
  width: number,
  totals: ReadonlyMap<string, number>,
): uPlot.Options {
  const c = colours();
  const axis = { stroke: c.fg, grid: { stroke: c.line, width: 1 }, ticks: { stroke: c.line } };
  const bars = uPlot.paths.bars?.({ size: [0.9, 60], align: 0 });
  return {
    width,
    height: width < 500 ? 220 : 280,
    scales: {
      // Half a month either side: the first and last bars are drawn whole.
      x: { time: true, range: (_u, min, max) => [min - HALF_MONTH, max + HALF_MONTH] },
      y: { range: (_u, _min, max) => [0, Math.max(1, Math.ceil(max * 1.1))] },
    },
    axes: [
      { ...axis, space: width < 500 ? 70 : 90 },
      { ...axis, size: 48, label: 'Conversations', labelSize: 18 },
    ],
    cursor: { points: { show: false } },
    legend: { live: true },
    series: [
      // Not hovering a month, the legend says each source's conversations in all (not blanks).
      {
        label: 'Month',
        value: (_u: uPlot, v: number | null) => (v === null ? 'all' : monthName(v)),
      },
      ...series.sources.map((source, i) => ({
        label: source,
        stroke: PALETTE[i % PALETTE.length] ?? '#999',
        fill: PALETTE[i % PALETTE.length] ?? '#999',
        width: 0,
        points: { show: false },
        ...(bars ? { paths: bars } : {}),
        value: (_u: uPlot, _v: number | null, _s: number, at: number | null) =>
          at === null ? count(totals.get(source) ?? 0) : count(series.values[i]?.[at] ?? 0),
      })),
    ],
  };
}

const monthName = (seconds: number): string =>
  new Date(seconds * 1000).toLocaleDateString(undefined, {
    year: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });

function stacked(series: MonthSeries): uPlot.AlignedData {
  const totals = series.values.map((_, i) =>
    series.times.map((_t, at) =>
      series.values.slice(i).reduce((sum, line) => sum + (line[at] ?? 0), 0),
    ),
  );
  return [series.times, ...totals.map((line) => line.map((v) => (v === 0 ? null : v)))];
}

/** The timeline: conversations per month per source on a time axis, redrawn on resize and theme. */
export function timelineChart(stats: Stats): HTMLElement {
  const series = monthSeries(stats);
  const totals = new Map(stats.bySource.map((s) => [s.source, s.conversations]));
  if (series.times.length === 0) return h('p', { class: 'empty' }, 'No dated conversations yet.');
  const box = h('figure', {
    class: 'timeline',
    id: 'timeline',
    role: 'img',
    'aria-label': `Conversations per month per source, ${monthName(series.times[0] ?? 0)} to ${monthName(series.times.at(-1) ?? 0)}`,
  });
  let plot: uPlot | undefined;
  const draw = (): void => {
    if (!box.isConnected) {
      stop();
      return;
    }
    const width = Math.max(280, Math.floor(box.clientWidth));
    plot?.destroy();
    plot = new uPlot(options(series, width, totals), stacked(series), box);
    // For tests and curious people: the drawn chart.
    (window as unknown as { chatgraphTimeline?: uPlot }).chatgraphTimeline = plot;
  };
  let lastWidth = 0;
  const resized = new ResizeObserver(() => {
    if (Math.abs(box.clientWidth - lastWidth) < 2) return;
    lastWidth = box.clientWidth;
    draw();
  });
  const themed = new MutationObserver(draw);
  const stop = (): void => {
    resized.disconnect();
    themed.disconnect();
    plot?.destroy();
  };
  resized.observe(box);
  themed.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return box;
}
