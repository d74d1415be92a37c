import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MASTER_KEY, mockDeployment, startTestProxy, type TestProxy } from '../harness.js';

// Debian's chromium, which .ci/run installs when it is missing; anywhere else, say so and skip.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(
    `admin page browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`,
  );
}
const ARTIFACTS = join(import.meta.dirname, '../artifacts');

describe.skipIf(!hasChromium)('admin page in headless Chromium', () => {
  let t: TestProxy;
  let browser: BrowserContext;
  let page: Page;
  let profile: string;
  const cspViolations: string[] = [];

  const api = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${t.url}${path}`, {
      method,
      headers: { ...t.admin, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    expect(res.status, `${method} ${path}`).toBe(200);
    return (await res.json()) as T;
  };
  const chat = (model: string, key = MASTER_KEY) =>
    fetch(`${t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }] }),
    });
  // playwright-core has no assertions of its own: poll the page with vitest's expect.poll
  const textOf = (testId: string) => page.getByTestId(testId).first().textContent({ timeout: 5_000 });
  const seeText = (testId: string, text: string, timeout = 5_000) =>
    expect.poll(() => textOf(testId), { timeout, interval: 50 }).toBe(text);
  const seeNone = (testId: string) =>
    expect.poll(() => page.getByTestId(testId).count(), { timeout: 5_000, interval: 50 }).toBe(0);
  /** Opens the page signed in afresh: a token kept from an earlier test (this tab's sessionStorage) is signed out first. */
  const signIn = async () => {
    await page.goto(`${t.url}/ui`);
    const signOut = page.getByTestId('signout');
    if ((await signOut.count()) > 0) await signOut.click();
    await page.getByTestId('signin-token').fill(MASTER_KEY);
    await page.getByTestId('signin-submit').click();
    await page.getByTestId('health-panel').waitFor();
  };

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    t = await startTestProxy('pglite', {
      // a group of one is never cooled (docs/resilience.md), so `flaky` has a second deployment
      models: (mock) => [
        mockDeployment(mock, 'east'),
        mockDeployment(mock, 'flaky-1', 'flaky'),
        mockDeployment(mock, 'flaky-2', 'flaky'),
      ],
      router_settings: { allowed_fails: 0, num_retries: 0, cooldown_time: 60 },
    });
    profile = await mkdtemp(join(tmpdir(), 'svc-chromium-'));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    page = browser.pages()[0] ?? (await browser.newPage());
    page.setDefaultTimeout(5_000);
    page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) cspViolations.push(message.text());
    });
  });
  afterEach(async (context) => {
    const name = context.task.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
    await page.screenshot({ path: join(ARTIFACTS, `admin-${name}.png`), fullPage: true });
    // everything the page runs and styles comes from its own origin, so the strict CSP blocks nothing
    expect(cspViolations).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });

  it('refuses a wrong token with a message, and signs in with the master key', async () => {
    await page.goto(`${t.url}/ui`);
    await page.getByTestId('signin-token').fill('sk-not-a-key-0000');
    await page.getByTestId('signin-submit').click();
    await page.getByTestId('signin-error').waitFor();
    expect(await textOf('signin-error')).toContain('master key or an admin JWT');
    await signIn();
    await page.getByTestId('signout').waitFor();
    expect(page.url()).not.toContain(MASTER_KEY);
  });

  it('creates a key, shows it once and lists it, then revokes it after a confirm step', async () => {
    await signIn();
    await page.getByTestId('key-new-key_alias').fill('ui-made');
    await page.getByTestId('key-new-max_budget').fill('5');
    await page.getByTestId('key-create-submit').click();
    const key = (await page.getByTestId('key-created-value').textContent()) ?? '';
    expect(key).toMatch(/^sk-/);
    const { data } = await api<{ data: Array<{ key_hash: string; key_alias: string }> }>('GET', '/key/list');
    const made = data.find((k) => k.key_alias === 'ui-made');
    expect(made).toBeDefined();
    const hash = made!.key_hash;
    await seeText(`key-alias-${hash}`, 'ui-made');
    await page.getByTestId('key-created-dismiss').click();
    await seeNone('key-created-value');

    await page.getByTestId(`key-revoke-${hash}`).click();
    await page.getByTestId(`key-revoke-confirm-${hash}`).click();
    await seeNone(`key-row-${hash}`);
    expect((await chat('gpt-4o', key)).status).toBe(401);
  });

  it('blocks a team, which the page and GET /team/info then show as blocked', async () => {
    await api('POST', '/team/new', { team_id: 'ui-team', team_alias: 'UI team' });
    await signIn();
    await seeText('team-status-ui-team', 'active');
    await page.getByTestId('team-toggle-ui-team').click();
    await seeText('team-status-ui-team', 'blocked');
    const info = await api<{ team_info: { blocked: boolean } }>('GET', '/team/info?team_id=ui-team');
    expect(info.team_info.blocked).toBe(true);
  });

  it('shows a deployment cooling down after its upstream fails', async () => {
    await signIn();
    await seeText('health-state-flaky-1', 'ok');
    t.mock.setBehavior('/flaky-1', { status: 500 });
    // calls pick a deployment of the group at random: call until one has reached flaky-1
    for (let i = 0; i < 50 && t.mock.hits('/flaky-1') === 0; i++) await chat('flaky');
    expect(t.mock.hits('/flaky-1')).toBeGreaterThan(0);
    // the panel polls every 2 s
    await seeText('health-state-flaky-1', 'cooling');
    expect(await textOf('health-cooling-flaky-1')).toContain('UTC');
    expect(await textOf('health-state-east')).toBe('ok');
  });

  it('reads spend by team and by model from the chart and its totals table', async () => {
    await api('POST', '/team/new', { team_id: 'ui-spend' });
    const { key } = await api<{ key: string }>('POST', '/key/generate', { team_id: 'ui-spend' });
    for (let i = 0; i < 3; i++) expect((await chat('gpt-4o', key)).status).toBe(200);
    const today = new Date().toISOString().slice(0, 10);
    const query = `start_date=${today}&end_date=${today}`;
    type Report = { data: Array<{ group: string | null; spend: number; requests: number }> };
    let byTeam: Report['data'] = [];
    // spend rows are written every 50 ms in this proxy
    await expect
      .poll(async () => {
        byTeam = (await api<Report>('GET', `/spend/report?${query}&group_by=team`)).data;
        return byTeam.find((r) => r.group === 'ui-spend')?.requests;
      })
      .toBe(3);
    const teamSpend = byTeam.find((r) => r.group === 'ui-spend')!.spend;
    expect(teamSpend).toBeGreaterThan(0);

    await signIn();
    await seeText('spend-total-ui-spend-requests', '3');
    expect(await textOf('spend-total-ui-spend-spend')).toBe(`$${teamSpend.toFixed(6)}`);
    expect(await page.locator(`[data-testid="spend-bar-${today}-ui-spend"] title`).textContent()).toContain(
      '3 requests',
    );

    await page.getByTestId('spend-group-model').click();
    await expect
      .poll(() => page.getByTestId('spend-output').getAttribute('data-group-by'), { timeout: 5_000 })
      .toBe('model');
    const byModel = (await api<Report>('GET', `/spend/report?${query}&group_by=model`)).data;
    const gpt = byModel.find((r) => r.group === 'gpt-4o')!;
    await seeText('spend-total-gpt-4o-requests', String(gpt.requests));
    expect(await textOf('spend-total-gpt-4o-spend')).toBe(`$${gpt.spend.toFixed(6)}`);
  });
});
