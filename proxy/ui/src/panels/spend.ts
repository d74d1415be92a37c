import { api, describeError } from '../api.js';
import { type ChartPoint, COLORS, spendChart } from '../chart.js';
import { directory } from '../directory.js';
import { h, panel, showStatus, svg } from '../dom.js';
import { money } from '../format.js';

/** One row of `GET /spend/report`: one day and one team, model group or tag. */
export interface SpendRow {
  day: string;
  group: string | null;
  spend: number;
  requests: number;
  prompt_tokens: number;
  completion_tokens: number;
}

type GroupBy = 'team' | 'model' | 'tag';
const NONE = '(none)';
/** What the null group is called: calls of no team, untagged calls. */
const NONE_LABEL: Record<GroupBy, string> = { team: 'no team', model: 'no model', tag: 'untagged' };
const GROUP_TITLE: Record<GroupBy, string> = { team: 'Team', model: 'Model', tag: 'Tag' };

/** `YYYY-MM-DD` of a date, in UTC (the report's days are UTC days). */
export function isoDay(date: Date): string {
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

interface Totals {
  spend: number;
  requests: number;
  prompt: number;
  completion: number;
}
const sum = (rows: SpendRow[]): Totals => ({
  spend: rows.reduce((s, r) => s + r.spend, 0),
  requests: rows.reduce((s, r) => s + r.requests, 0),
  prompt: rows.reduce((s, r) => s + r.prompt_tokens, 0),
  completion: rows.reduce((s, r) => s + r.completion_tokens, 0),
});

function totalsTable(
  rows: SpendRow[],
  groups: string[],
  groupBy: GroupBy,
  label: (g: string) => string,
): HTMLElement {
  const line = (testid: string, name: Node | string, t: Totals) =>
    h(
      'tr',
      { 'data-testid': testid },
      h('td', {}, name),
      h('td', { class: 'num', 'data-testid': `${testid}-spend` }, money(t.spend)),
      h('td', { class: 'num', 'data-testid': `${testid}-requests` }, t.requests),
      h('td', { class: 'num' }, t.prompt.toLocaleString('en-US')),
      h('td', { class: 'num' }, t.completion.toLocaleString('en-US')),
    );
  const swatch = (i: number) =>
    svg(
      'svg',
      { width: 10, height: 10, class: 'swatch', 'aria-hidden': 'true' },
      svg('rect', { width: 10, height: 10, fill: COLORS[i % COLORS.length] ?? '#888' }),
    );
  return h(
    'div',
    { class: 'table-scroll' },
    h(
      'table',
      { 'data-testid': 'spend-totals' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...[GROUP_TITLE[groupBy], 'Spend', 'Requests', 'Prompt tokens', 'Completion tokens'].map((t) =>
            h('th', {}, t),
          ),
        ),
      ),
      h(
        'tbody',
        {},
        ...groups.map((g, i) => {
          const name = h('span', { class: 'nowrap', title: g }, swatch(i), ` ${label(g)}`);
          return line(`spend-total-${g}`, name, sum(rows.filter((r) => (r.group ?? NONE) === g)));
        }),
      ),
      h('tfoot', {}, line('spend-total-all', 'Total', sum(rows))),
    ),
  );
}

/** Spend per day as a stacked bar chart by team, model or tag, and a table of totals (the legend). */
export function spendPanel(): { section: HTMLElement; refresh(): Promise<void> } {
  const { section, body, status } = panel('spend', 'Spend');
  let groupBy: GroupBy = 'team';
  let last: { rows: SpendRow[]; days: string[]; groups: string[] } | undefined;
  const today = new Date();
  const start = h('input', {
    type: 'date',
    value: isoDay(new Date(today.getTime() - 13 * 86_400_000)),
    'data-testid': 'spend-start',
  });
  const end = h('input', { type: 'date', value: isoDay(today), 'data-testid': 'spend-end' });
  const chartBox = h('div', { class: 'chart' });
  const output = h('div', { 'data-testid': 'spend-output' });
  const label = (group: string) =>
    group === NONE ? NONE_LABEL[groupBy] : groupBy === 'team' ? directory.teamName(group) : group;

  const drawChart = () => {
    if (!last || last.rows.length === 0)
      return chartBox.replaceChildren(h('p', {}, 'No spend in these days.'));
    const points: ChartPoint[] = last.rows.map((r) => ({
      day: r.day,
      group: r.group ?? NONE,
      spend: r.spend,
      requests: r.requests,
    }));
    const width = Math.max(280, chartBox.clientWidth || 800);
    chartBox.replaceChildren(spendChart(points, last.days, last.groups, width, label));
  };
  let pending = 0;
  window.addEventListener('resize', () => {
    cancelAnimationFrame(pending);
    pending = requestAnimationFrame(drawChart);
  });

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
    h('label', {}, 'From', start),
    h('label', {}, 'To', end),
    h('span', { class: 'segmented' }, toggle('team'), toggle('model'), toggle('tag')),
    h('button', { type: 'button', 'data-testid': 'spend-refresh', onclick: () => void refresh() }, 'Refresh'),
  );

  const refresh = async () => {
    try {
      const query = new URLSearchParams({ start_date: start.value, end_date: end.value, group_by: groupBy });
      const [report] = await Promise.all([
        api<{ start_date: string; end_date: string; group_by: GroupBy; data: SpendRow[] }>(
          'GET',
          `/spend/report?${query}`,
        ),
        directory.load(),
      ]);
      const byGroup = new Map<string, number>();
      for (const r of report.data)
        byGroup.set(r.group ?? NONE, (byGroup.get(r.group ?? NONE) ?? 0) + r.spend);
      const groups = [...byGroup].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([g]) => g);
      last = { rows: report.data, days: daysBetween(report.start_date, report.end_date), groups };
      output.replaceChildren(totalsTable(report.data, groups, report.group_by, label));
      output.setAttribute('data-group-by', report.group_by);
      drawChart();
      showStatus(status, null);
    } catch (error) {
      showStatus(status, describeError(error));
    }
  };

  body.append(controls, chartBox, output);
  return { section, refresh };
}
