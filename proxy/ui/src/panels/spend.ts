import { api, describeError } from '../api.js';
import { dollars, h, panel, showStatus, svg } from '../dom.js';

/** One row of `GET /spend/report`: one day and one team or model. */
export interface SpendRow {
  day: string;
  group: string | null;
  spend: number;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
}

type GroupBy = 'team' | 'model';

const COLORS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#9c755f'];
const NONE = '(none)';
const CHART_HEIGHT = 180;
const BAR_WIDTH = 28;
const GAP = 12;
const LEFT = 70;
const BOTTOM = 40;

/** `YYYY-MM-DD` of a date, in UTC (the report's days are UTC days). */
function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** Every day from `start` to `end`, both included, so days without spend still get a slot. */
export function daysBetween(start: string, end: string): string[] {
  const days: string[] = [];
  for (
    let d = new Date(`${start}T00:00:00Z`);
    isoDay(d) <= end && days.length < 366;
    d.setUTCDate(d.getUTCDate() + 1)
  ) {
    days.push(isoDay(d));
  }
  return days;
}

function chart(rows: SpendRow[], days: string[], groups: string[]): SVGSVGElement {
  const color = (group: string) => COLORS[groups.indexOf(group) % COLORS.length] ?? COLORS[0]!;
  const totals = days.map((day) => rows.filter((r) => r.day === day).reduce((sum, r) => sum + r.spend, 0));
  const max = Math.max(...totals, 0) || 1;
  const width = LEFT + days.length * (BAR_WIDTH + GAP) + GAP;
  const height = CHART_HEIGHT + BOTTOM;
  const scale = (spend: number) => (spend / max) * CHART_HEIGHT;
  const bars = days.flatMap((day, i) => {
    const x = LEFT + GAP + i * (BAR_WIDTH + GAP);
    let y = CHART_HEIGHT;
    const stack = groups.flatMap((group) => {
      const row = rows.find((r) => r.day === day && (r.group ?? NONE) === group);
      if (!row || row.spend <= 0) return [];
      const barHeight = Math.max(scale(row.spend), 1);
      y -= barHeight;
      return [
        svg(
          'rect',
          {
            x,
            y,
            width: BAR_WIDTH,
            height: barHeight,
            fill: color(group),
            'data-testid': `spend-bar-${day}-${group}`,
          },
          svg('title', {}, `${day} · ${group}: ${dollars(row.spend)} (${row.requests} requests)`),
        ),
      ];
    });
    const label = days.length <= 14 || i % Math.ceil(days.length / 14) === 0 ? day.slice(5) : '';
    return [
      ...stack,
      svg(
        'text',
        { x: x + BAR_WIDTH / 2, y: CHART_HEIGHT + 16, 'text-anchor': 'middle', class: 'axis' },
        label,
      ),
    ];
  });
  return svg(
    'svg',
    {
      viewBox: `0 0 ${width} ${height}`,
      width,
      height,
      role: 'img',
      'aria-label': 'Spend by day',
      'data-testid': 'spend-chart',
    },
    svg('line', { x1: LEFT, y1: CHART_HEIGHT, x2: width, y2: CHART_HEIGHT, stroke: '#888' }),
    svg('text', { x: LEFT - 6, y: 12, 'text-anchor': 'end', class: 'axis' }, dollars(max)),
    svg('text', { x: LEFT - 6, y: CHART_HEIGHT, 'text-anchor': 'end', class: 'axis' }, '$0'),
    ...bars,
  );
}

function legend(groups: string[]): HTMLElement {
  return h(
    'ul',
    { class: 'legend', 'data-testid': 'spend-legend' },
    ...groups.map((group, i) =>
      h(
        'li',
        {},
        svg(
          'svg',
          { width: 12, height: 12, 'aria-hidden': 'true' },
          svg('rect', { width: 12, height: 12, fill: COLORS[i % COLORS.length] ?? '#888' }),
        ),
        ` ${group}`,
      ),
    ),
  );
}

function totalsTable(rows: SpendRow[], groups: string[], groupBy: GroupBy): HTMLTableElement {
  const sum = (of: SpendRow[]) => ({
    spend: of.reduce((s, r) => s + r.spend, 0),
    requests: of.reduce((s, r) => s + r.requests, 0),
    prompt: of.reduce((s, r) => s + r.prompt_tokens, 0),
    completion: of.reduce((s, r) => s + r.completion_tokens, 0),
  });
  const line = (testid: string, name: string, t: ReturnType<typeof sum>) =>
    h(
      'tr',
      { 'data-testid': testid },
      h('td', {}, name),
      h('td', { class: 'num', 'data-testid': `${testid}-requests` }, t.requests),
      h('td', { class: 'num' }, t.prompt),
      h('td', { class: 'num' }, t.completion),
      h('td', { class: 'num', 'data-testid': `${testid}-spend` }, dollars(t.spend)),
    );
  return h(
    'table',
    { 'data-testid': 'spend-totals' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        ...[
          groupBy === 'team' ? 'Team' : 'Model',
          'Requests',
          'Prompt tokens',
          'Completion tokens',
          'Spend',
        ].map((t) => h('th', {}, t)),
      ),
    ),
    h(
      'tbody',
      {},
      ...groups.map((g) => line(`spend-total-${g}`, g, sum(rows.filter((r) => (r.group ?? NONE) === g)))),
    ),
    h('tfoot', {}, line('spend-total-all', 'Total', sum(rows))),
  );
}

/** Spend by day as a stacked bar chart (by team or by model), with a legend and a table of totals. */
export function spendPanel(): { section: HTMLElement; refresh(): Promise<void> } {
  const { section, body, status } = panel('spend', 'Spend');
  let groupBy: GroupBy = 'team';
  const today = new Date();
  const weekAgo = new Date(today.getTime() - 6 * 86_400_000);
  const start = h('input', {
    type: 'date',
    value: isoDay(weekAgo),
    'data-testid': 'spend-start',
    'aria-label': 'Start date',
  });
  const end = h('input', {
    type: 'date',
    value: isoDay(today),
    'data-testid': 'spend-end',
    'aria-label': 'End date',
  });
  const output = h('div', { 'data-testid': 'spend-output' });
  const toggle = (value: GroupBy) =>
    h(
      'button',
      {
        type: 'button',
        'data-testid': `spend-group-${value}`,
        'aria-pressed': String(groupBy === value),
        onclick: () => {
          groupBy = value;
          for (const b of controls.querySelectorAll('[aria-pressed]')) {
            b.setAttribute('aria-pressed', String(b.getAttribute('data-testid') === `spend-group-${value}`));
          }
          void refresh();
        },
      },
      `By ${value}`,
    );
  const controls = h(
    'div',
    { class: 'inline-form' },
    h('label', {}, 'From ', start),
    h('label', {}, 'To ', end),
    toggle('team'),
    toggle('model'),
    h('button', { type: 'button', 'data-testid': 'spend-refresh', onclick: () => void refresh() }, 'Refresh'),
  );

  const refresh = async () => {
    try {
      const query = new URLSearchParams({ start_date: start.value, end_date: end.value, group_by: groupBy });
      const report = await api<{ start_date: string; end_date: string; group_by: GroupBy; data: SpendRow[] }>(
        'GET',
        `/spend/report?${query}`,
      );
      const groups = [...new Set(report.data.map((r) => r.group ?? NONE))].sort();
      const days = daysBetween(report.start_date.slice(0, 10), report.end_date.slice(0, 10));
      output.replaceChildren(
        ...(report.data.length === 0
          ? [h('p', {}, 'No spend in these days.')]
          : [h('div', { class: 'chart' }, chart(report.data, days, groups)), legend(groups)]),
        totalsTable(report.data, groups, report.group_by),
      );
      output.setAttribute('data-group-by', report.group_by);
      showStatus(status, null);
    } catch (error) {
      showStatus(status, describeError(error));
    }
  };

  body.append(controls, output);
  void refresh();
  return { section, refresh };
}
