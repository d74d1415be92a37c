import { describe, expect, it } from 'vitest';
import { MASTER_KEY, mockDeployment } from '../harness.js';
import { hasChromium, useAdminPage } from './browser.js';

describe.skipIf(!hasChromium)('admin page in headless Chromium', () => {
  const p = useAdminPage({
    // a group of one is never cooled (docs/resilience.md), so `flaky` has a second deployment; the
    // long id is what a generated deployment id looks like
    models: (mock) => [
      mockDeployment(mock, 'east'),
      mockDeployment(mock, 'flaky-1', 'flaky'),
      mockDeployment(mock, 'flaky-2', 'flaky'),
      mockDeployment(mock, 'f'.repeat(64), 'long'),
    ],
    router_settings: { allowed_fails: 0, num_retries: 0, cooldown_time: 60 },
  });

  it('refuses a wrong token with a message, and signs in with the master key', async () => {
    const { page } = p;
    await page.goto(`${p.t.url}/ui`);
    await page.getByTestId('signin-token').fill('sk-not-a-key-0000');
    await page.getByTestId('signin-submit').click();
    await page.getByTestId('signin-error').waitFor();
    expect(await p.textOf('signin-error')).toContain('master key or an admin JWT');
    await p.signIn();
    await page.getByTestId('signout').waitFor();
    expect(page.url()).not.toContain(MASTER_KEY);
  });

  it('moves between panels with the navigation, showing one at a time', async () => {
    await p.signIn('keys');
    await p.page.getByTestId('nav-teams').click();
    await p.page.locator('#teams:not([hidden])').waitFor();
    expect(await p.page.locator('#keys').isHidden()).toBe(true);
    expect(await p.page.getByTestId('nav-teams').getAttribute('aria-current')).toBe('page');
    expect(p.page.url()).toMatch(/#teams$/);
  });

  it('creates a key, shows it once and lists it, then revokes it after a confirm step', async () => {
    const { page } = p;
    await p.signIn();
    await page.getByTestId('key-new').click();
    await page.getByTestId('key-form-key_alias').fill('ui-made');
    await page.getByTestId('key-form-max_budget').fill('5');
    await page.getByTestId('key-form-submit').click();
    const key = (await page.getByTestId('key-created-value').textContent()) ?? '';
    expect(key).toMatch(/^sk-/);
    const { data } = await p.api<{ data: Array<{ key_hash: string; key_alias: string }> }>(
      'GET',
      '/key/list',
    );
    const hash = data.find((k) => k.key_alias === 'ui-made')!.key_hash;
    await p.seeText(`key-budget-${hash}-text`, '$0.00 of $5.00');
    expect(await p.textOf(`key-alias-${hash}`)).toContain('ui-made');
    await page.getByTestId('key-created-dismiss').click();
    await p.seeNone('key-created-value');

    await page.getByTestId(`key-revoke-${hash}`).click();
    await page.getByTestId(`key-revoke-${hash}-confirm`).click();
    await p.seeNone(`key-row-${hash}`);
    expect((await p.chat('gpt-4o', key)).status).toBe(401);
  });

  it('blocks a team, which the page and GET /team/info then show as blocked', async () => {
    await p.api('POST', '/team/new', { team_id: 'ui-team', team_alias: 'UI team' });
    await p.signIn('teams');
    await p.seeText('team-status-ui-team', 'active');
    await p.page.getByTestId('team-toggle-ui-team').click();
    await p.seeText('team-status-ui-team', 'blocked');
    expect(await p.page.getByTestId('team-row-ui-team').getAttribute('class')).toContain('blocked');
    const info = await p.api<{ team_info: { blocked: boolean } }>('GET', '/team/info?team_id=ui-team');
    expect(info.team_info.blocked).toBe(true);
  });

  it('shows a deployment cooling down after its upstream fails', async () => {
    await p.signIn('health');
    await p.seeText('health-state-flaky-1', 'ok');
    p.t.mock.setBehavior('/flaky-1', { status: 500 });
    // calls pick a deployment of the group at random: call until one has reached flaky-1
    for (let i = 0; i < 50 && p.t.mock.hits('/flaky-1') === 0; i++) await p.chat('flaky');
    expect(p.t.mock.hits('/flaky-1')).toBeGreaterThan(0);
    // the panel polls every 2 s
    await p.seeText('health-state-flaky-1', 'cooling');
    const until = p.page.getByTestId('health-row-flaky-1').locator('time');
    expect(await until.textContent()).toMatch(/^in \d+ (s|min)$/);
    expect(await until.getAttribute('title')).toContain('UTC');
    expect(await p.textOf('health-state-east')).toBe('ok');
  });

  it('cuts a 64-character deployment id short, with the whole id in its title', async () => {
    await p.signIn('health');
    const cell = p.page
      .getByTestId(`health-row-${'f'.repeat(64)}`)
      .locator('td')
      .first()
      .locator('span');
    expect((await cell.textContent())!.length).toBeLessThanOrEqual(28);
    expect(await cell.getAttribute('title')).toBe('f'.repeat(64));
  });

  it('shows aliases with markup in them as text, running none of it', async () => {
    const evil = '<img src=x onerror=alert(1)>';
    await p.api('POST', '/team/new', { team_id: 'xss-team', team_alias: `${evil}team` });
    const { key_hash } = await p.api<{ key_hash: string }>('POST', '/key/generate', {
      key_alias: `${evil}key`,
      team_id: 'xss-team',
    });
    await p.signIn('keys');
    expect(await p.textOf(`key-alias-${key_hash}`)).toContain(`${evil}key`);
    expect(await p.textOf(`key-team-${key_hash}`)).toBe(`${evil}team`);
    await p.page.getByTestId('nav-teams').click();
    expect(await p.textOf('team-name-xss-team')).toContain(`${evil}team`);
    expect(await p.page.locator('img').count()).toBe(0);
  });
});
