import { type ApiError, api, clearToken, describeError, getToken, setToken, whenDenied } from './api.js';
import { h } from './dom.js';
import { healthPanel } from './panels/health.js';
import { keysPanel } from './panels/keys.js';
import { logsPanel } from './panels/logs.js';
import { spendPanel } from './panels/spend.js';
import { teamsPanel } from './panels/teams.js';

const root = document.getElementById('app')!;
let stopPolling: () => void = () => {};

/** The sign-in form; `message` explains why it is shown again (a refused token). */
function showSignIn(message: string | null = null): void {
  stopPolling();
  window.onhashchange = null;
  const token = h('input', {
    type: 'password',
    name: 'token',
    autocomplete: 'off',
    required: true,
    'aria-label': 'Master key or admin JWT',
    placeholder: 'sk-... or an admin JWT',
    'data-testid': 'signin-token',
  });
  const error = h(
    'p',
    { class: 'status', role: 'alert', 'data-testid': 'signin-error', hidden: message === null },
    message ?? '',
  );
  const form = h(
    'form',
    { class: 'signin', 'data-testid': 'signin-form' },
    h('h1', {}, 'svc-router admin'),
    h('label', {}, 'Master key or admin JWT', token),
    h('button', { type: 'submit', 'data-testid': 'signin-submit' }, 'Sign in'),
    error,
  );
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    void signIn(token.value.trim(), error);
  });
  root.replaceChildren(form);
  token.focus();
}

/** Checks the token on an admin route before keeping it, so a wrong one is refused at once. */
async function signIn(token: string, error: HTMLElement): Promise<void> {
  setToken(token);
  try {
    await api('GET', '/key/list?page=1&size=1');
    showApp();
  } catch (e) {
    clearToken();
    error.textContent = describeError(e);
    error.hidden = false;
  }
}

/** The panels in the order of the navigation; the URL's hash names the one shown (`#keys`). */
const PANELS = [
  ['keys', 'Keys'],
  ['teams', 'Teams'],
  ['spend', 'Spend'],
  ['logs', 'Spend log'],
  ['health', 'Deployments'],
] as const;
type PanelId = (typeof PANELS)[number][0];

function showApp(): void {
  const health = healthPanel();
  stopPolling = health.stop;
  const panels: Record<PanelId, { section: HTMLElement; refresh?: () => Promise<void> }> = {
    keys: keysPanel(),
    teams: teamsPanel(),
    spend: spendPanel(),
    logs: logsPanel(),
    health,
  };
  const links = PANELS.map(([id, title]) => h('a', { href: `#${id}`, 'data-testid': `nav-${id}` }, title));
  const show = () => {
    const wanted = location.hash.slice(1);
    const current: PanelId = PANELS.some(([id]) => id === wanted) ? (wanted as PanelId) : 'keys';
    for (const [id] of PANELS) panels[id].section.hidden = id !== current;
    for (const link of links) {
      if (link.getAttribute('href') === `#${current}`) link.setAttribute('aria-current', 'page');
      else link.removeAttribute('aria-current');
    }
    void panels[current].refresh?.();
  };
  window.onhashchange = show;
  const signOut = h(
    'button',
    {
      type: 'button',
      'data-testid': 'signout',
      onclick: () => {
        clearToken();
        showSignIn();
      },
    },
    'Sign out',
  );
  root.replaceChildren(
    h(
      'header',
      { class: 'top' },
      h('h1', {}, 'svc-router admin'),
      h('nav', { 'aria-label': 'Panels', 'data-testid': 'nav' }, ...links),
      signOut,
    ),
    ...PANELS.map(([id]) => panels[id].section),
  );
  show();
}

whenDenied((error: ApiError) => {
  if (getToken() === null) return;
  clearToken();
  showSignIn(describeError(error));
});

if (getToken()) showApp();
else showSignIn();
