import { api, describeError } from '../api.js';
import { h, panel, shortText, showStatus, timeText } from '../dom.js';

/** One row of `GET /deployment/health`. */
export interface DeploymentHealth {
  model_group: string;
  deployment_id: string;
  provider: string;
  model: string;
  state: 'ok' | 'cooling' | 'half_open';
  cooling_until: string | number | null;
  in_flight: number;
  requests: number;
  failures: number;
  error_rate: number | null;
  latency_ms: number | null;
  /** False: no price is known, its calls cost 0 (absent from older proxies). */
  priced?: boolean;
}

const POLL_MS = 2_000;
const STATE_LABEL: Record<DeploymentHealth['state'], string> = {
  ok: 'ok',
  cooling: 'cooling',
  half_open: 'half-open',
};

function row(d: DeploymentHealth): HTMLTableRowElement {
  return h(
    'tr',
    { 'data-testid': `health-row-${d.deployment_id}`, 'data-state': d.state },
    h('td', {}, shortText(d.deployment_id, 28)),
    h(
      'td',
      {},
      shortText(`${d.provider} / ${d.model}`, 32),
      ...(d.priced === false
        ? [
            ' ',
            h(
              'span',
              {
                class: 'badge unpriced',
                'data-testid': `health-unpriced-${d.deployment_id}`,
                title: 'No price known: its calls cost 0 and budgeted keys may not use it (docs/cost.md)',
              },
              'unpriced',
            ),
          ]
        : []),
    ),
    h(
      'td',
      {},
      h(
        'span',
        { class: `badge state-${d.state}`, 'data-testid': `health-state-${d.deployment_id}` },
        STATE_LABEL[d.state] ?? d.state,
      ),
    ),
    h(
      'td',
      { 'data-testid': `health-cooling-${d.deployment_id}` },
      d.state === 'cooling' ? timeText(d.cooling_until) : '—',
    ),
    h('td', { class: 'num' }, d.in_flight),
    h('td', { class: 'num' }, d.latency_ms === null ? '—' : `${Math.round(d.latency_ms)} ms`),
    h('td', { class: 'num' }, `${((d.error_rate ?? 0) * 100).toFixed(1)}% (${d.failures}/${d.requests})`),
  );
}

function render(body: HTMLElement, deployments: DeploymentHealth[]): void {
  const groups = new Map<string, DeploymentHealth[]>();
  for (const d of deployments) groups.set(d.model_group, [...(groups.get(d.model_group) ?? []), d]);
  const head = h(
    'tr',
    {},
    ...['Deployment', 'Provider / model', 'State', 'Cooling until', 'In flight', 'Latency', 'Error rate'].map(
      (t) => h('th', {}, t),
    ),
  );
  // one table for every group, so the columns line up; each group opens with a row naming it
  body.replaceChildren(
    groups.size === 0
      ? h('p', {}, 'No deployments.')
      : h(
          'div',
          { class: 'table-scroll' },
          h(
            'table',
            {},
            h('thead', {}, head),
            ...[...groups].map(([group, rows]) =>
              h(
                'tbody',
                { 'data-testid': `health-group-${group}` },
                h('tr', { class: 'group-row' }, h('th', { colspan: 7 }, group)),
                ...rows.map(row),
              ),
            ),
          ),
        ),
  );
}

/** Model groups and each deployment's live health, refreshed every 2 s while the tab is visible. */
export function healthPanel(): { section: HTMLElement; stop(): void } {
  const { section, body, status } = panel('health', 'Deployments');
  let timer: number | undefined;
  const refresh = async () => {
    try {
      const { data } = await api<{ data: DeploymentHealth[] }>('GET', '/deployment/health');
      render(body, data);
      showStatus(status, null);
    } catch (error) {
      showStatus(status, describeError(error));
    }
  };
  const schedule = () => {
    window.clearInterval(timer);
    timer = undefined;
    if (document.visibilityState !== 'visible') return;
    void refresh();
    timer = window.setInterval(() => void refresh(), POLL_MS);
  };
  document.addEventListener('visibilitychange', schedule);
  schedule();
  return {
    section,
    stop: () => {
      window.clearInterval(timer);
      document.removeEventListener('visibilitychange', schedule);
    },
  };
}
