import { get } from './api.js';
import { stats as readStats } from './answers.js';
import { count, h, replace } from './dom.js';
import { timelineChart } from './timeline-chart.js';

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

/** Totals, conversations over time per source, top models, roles. */
export async function showOverview(view: HTMLElement): Promise<void> {
  const stats = await get('/api/overview', readStats);
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
    h('h2', {}, 'Conversations over time'),
    timelineChart(stats),
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
