import { h, svg, timeText } from './dom.js';
import { money } from './format.js';

/** The budget fields keys and teams share. */
export interface Budgeted {
  spend: number;
  max_budget: number | null;
  budget_duration?: string | null;
  budget_reset_at?: string | null;
  soft_budget?: number | null;
}

/** At or past its max_budget: its calls are refused. */
export function overBudget(b: Budgeted): boolean {
  return b.max_budget !== null && b.spend >= b.max_budget;
}

/**
 * Spend against budget: `$1.20 of $5.00`, a bar (red when over, amber past the soft budget), and the
 * period with its reset time (`per 30d · resets in 4 d`). Without a budget, the spend alone.
 */
export function budgetView(b: Budgeted, testid: string): HTMLElement {
  const text = h(
    'span',
    { class: 'nowrap', 'data-testid': `${testid}-text` },
    b.max_budget === null ? `${money(b.spend)} spent` : `${money(b.spend)} of ${money(b.max_budget)}`,
  );
  if (b.max_budget === null)
    return h('div', { class: 'budget', 'data-testid': testid }, text, h('small', {}, 'no budget'));
  const share = b.max_budget > 0 ? Math.min(1, b.spend / b.max_budget) : 1;
  const level = overBudget(b) ? 'over' : b.soft_budget != null && b.spend >= b.soft_budget ? 'soft' : 'ok';
  const bar = svg(
    'svg',
    {
      class: 'bar',
      viewBox: '0 0 100 6',
      preserveAspectRatio: 'none',
      role: 'img',
      'aria-label': `${Math.round(share * 100)}% of the budget spent`,
      'data-testid': `${testid}-bar`,
      'data-level': level,
    },
    svg('rect', { class: 'bar-track', x: 0, y: 0, width: 100, height: 6, rx: 2 }),
    svg('rect', {
      class: `bar-fill bar-${level}`,
      x: 0,
      y: 0,
      width: (share * 100).toFixed(2),
      height: 6,
      rx: 2,
    }),
  );
  const period = b.budget_duration
    ? h(
        'small',
        { class: 'nowrap', 'data-testid': `${testid}-period` },
        `per ${b.budget_duration}`,
        ...(b.budget_reset_at ? [' · resets ', timeText(b.budget_reset_at)] : []),
      )
    : h('small', {}, 'total, no reset');
  return h('div', { class: 'budget', 'data-testid': testid }, text, bar, period);
}
