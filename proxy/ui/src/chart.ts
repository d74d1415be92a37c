import { svg } from './dom.js';
import { axisTicks, money } from './format.js';

/** One stacked piece: a day's spend of one group. */
export interface ChartPoint {
  day: string;
  group: string;
  spend: number;
  requests: number;
}

export const COLORS = [
  '#4e79a7',
  '#f28e2b',
  '#59a14f',
  '#e15759',
  '#76b7b2',
  '#edc948',
  '#b07aa1',
  '#9c755f',
];
const HEIGHT = 240;
const TOP = 18;
const BOTTOM = 26;
const LEFT = 64;
const RIGHT = 8;

/**
 * Spend per day as stacked bars across `width` pixels: a value axis with round steps and gridlines, a
 * label per day (thinned when days are narrow), each day's total over its bar when there is room, and
 * each piece titled with its day, group, spend and requests. `label` names a group (a team by alias).
 */
export function spendChart(
  points: ChartPoint[],
  days: string[],
  groups: string[],
  width: number,
  label: (group: string) => string,
): SVGSVGElement {
  const totals = days.map((day) => points.filter((p) => p.day === day).reduce((sum, p) => sum + p.spend, 0));
  const ticks = axisTicks(Math.max(...totals, 0));
  const top = ticks[ticks.length - 1] || 1;
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const plotWidth = width - LEFT - RIGHT;
  const slot = plotWidth / Math.max(days.length, 1);
  const barWidth = Math.max(2, Math.min(48, slot * 0.7));
  const y = (spend: number) => TOP + plotHeight - (spend / top) * plotHeight;
  const every = Math.ceil(44 / slot);

  const grid = ticks.flatMap((tick) => [
    svg('line', {
      x1: LEFT,
      x2: width - RIGHT,
      y1: y(tick),
      y2: y(tick),
      class: tick === 0 ? 'axis-line' : 'grid',
    }),
    svg(
      'text',
      { x: LEFT - 6, y: y(tick) + 4, 'text-anchor': 'end', class: 'axis', 'data-testid': 'spend-tick' },
      money(tick),
    ),
  ]);
  const bars = days.flatMap((day, i) => {
    const x = LEFT + i * slot + (slot - barWidth) / 2;
    let base = 0;
    const stack = groups.flatMap((group, g) => {
      const point = points.find((p) => p.day === day && p.group === group);
      if (!point || point.spend <= 0) return [];
      const from = base;
      base += point.spend;
      return [
        svg(
          'rect',
          {
            x: x.toFixed(1),
            y: y(base).toFixed(1),
            width: barWidth.toFixed(1),
            height: Math.max(1, y(from) - y(base)).toFixed(1),
            fill: COLORS[g % COLORS.length] ?? '#888',
            'data-testid': `spend-bar-${day}-${group}`,
            'data-spend': point.spend,
          },
          svg('title', {}, `${day} · ${label(group)}: ${money(point.spend)} (${point.requests} requests)`),
        ),
      ];
    });
    const total = totals[i] ?? 0;
    return [
      ...stack,
      ...(total > 0 && slot >= 44
        ? [
            svg(
              'text',
              {
                x: x + barWidth / 2,
                y: y(total) - 4,
                'text-anchor': 'middle',
                class: 'bar-value',
                'data-testid': `spend-day-total-${day}`,
              },
              money(total),
            ),
          ]
        : []),
      // counted from the newest day, which always gets its label
      ...((days.length - 1 - i) % every === 0
        ? [
            svg(
              'text',
              { x: x + barWidth / 2, y: HEIGHT - 8, 'text-anchor': 'middle', class: 'axis' },
              day.slice(5),
            ),
          ]
        : []),
    ];
  });
  return svg(
    'svg',
    {
      width,
      height: HEIGHT,
      viewBox: `0 0 ${width} ${HEIGHT}`,
      role: 'img',
      'aria-label': 'Spend by day',
      'data-testid': 'spend-chart',
    },
    ...grid,
    ...bars,
  );
}
