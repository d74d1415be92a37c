import { type ApiError, api, clearToken, describeError, getToken, setToken, whenDenied } from './api.js';
import { h } from './dom.js';
import { healthPanel } from './panels/health.js';
import { keysPanel } from './panels/keys.js';
import { spendPanel } from './panels/spend.js';
import { teamsPanel } from './panels/teams.js';

const root = document.getElementById('app')!;
let stopPolling: () => void = () => {};

/** The sign-in form; `message` explains why it is shown again (a refused token). */
function showSignIn(message: string | null = null): void {
  stopPolling();
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

function showApp(): void {
  const health = healthPanel();
  stopPolling = health.stop;
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
    h('header', { class: 'top' }, h('h1', {}, 'svc-router admin'), signOut),
    health.section,
    keysPanel().section,
    teamsPanel().section,
    spendPanel().section,
  );
}

whenDenied((error: ApiError) => {
  if (getToken() === null) return;
  clearToken();
  showSignIn(describeError(error));
});

if (getToken()) showApp();
else showSignIn();
