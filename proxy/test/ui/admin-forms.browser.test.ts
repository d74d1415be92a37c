import { describe, expect, it } from 'vitest';
import { money } from '../../ui/src/format.js';
import { eventually } from '../harness.js';
import { hasChromium, useAdminPage } from './browser.js';

interface Key {
  key: string;
  key_hash: string;
}
interface KeyInfo {
  info: Record<string, unknown>;
}
interface TeamInfo {
  team_info: Record<string, unknown>;
}

describe.skipIf(!hasChromium)('admin page forms for keys and teams', () => {
  const p = useAdminPage();
  const newKey = (body: Record<string, unknown> = {}) => p.api<Key>('POST', '/key/generate', body);

  it('creates a team with the form, then lists it by alias with its budget, period and limits', async () => {
    const { page } = p;
    await p.signIn('teams');
    await page.getByTestId('team-new').click();
    await page.getByTestId('team-form-team_alias').fill('Search');
    await page.getByTestId('team-form-team_id').fill('search');
    await page.getByTestId('team-form-models').fill('gpt-4o, gpt-4o-mini');
    await page.getByTestId('team-form-max_budget').fill('25');
    await page.getByTestId('team-form-budget_duration').fill('30d');
    await page.getByTestId('team-form-rpm_limit').fill('100');
    await page.getByTestId('team-form-submit').click();
    await p.seeNone('team-form');

    const { team_info } = await p.api<TeamInfo>('GET', '/team/info?team_id=search');
    expect(team_info).toMatchObject({
      team_alias: 'Search',
      models: ['gpt-4o', 'gpt-4o-mini'],
      max_budget: 25,
      budget_duration: '30d',
      rpm_limit: 100,
    });
    await p.seeText('team-budget-search-text', '$0.00 of $25.00');
    expect(await p.textOf('team-name-search')).toBe('Searchsearch');
    // a reset a week or more away reads as its day; the exact time is the title
    expect(await p.textOf('team-budget-search-period')).toMatch(/^per 30d · resets \d{4}-\d{2}-\d{2}$/);
    const reset = p.page.getByTestId('team-budget-search-period').locator('time');
    expect(await reset.getAttribute('datetime')).toBe(team_info.budget_reset_at);
    expect(await p.textOf('team-row-search')).toContain('100 / —');
  });

  it("edits a team's budget and models, sending only what changed", async () => {
    await p.api('POST', '/team/new', { team_id: 'ads', team_alias: 'Ads', max_budget: 10, rpm_limit: 7 });
    await p.signIn('teams');
    await p.page.getByTestId('team-edit-ads').click();
    expect(await p.page.getByTestId('team-form-max_budget').inputValue()).toBe('10');
    await p.page.getByTestId('team-form-max_budget').fill('12.5');
    await p.page.getByTestId('team-form-models').fill('gpt-4o');
    await p.page.getByTestId('team-form-submit').click();
    await p.seeText('team-budget-ads-text', '$0.00 of $12.50');
    const { team_info } = await p.api<TeamInfo>('GET', '/team/info?team_id=ads');
    expect(team_info).toMatchObject({
      max_budget: 12.5,
      models: ['gpt-4o'],
      rpm_limit: 7,
      team_alias: 'Ads',
    });
  });

  it('creates a key in a team chosen by alias, with a budget period', async () => {
    await p.api('POST', '/team/new', { team_id: 'team_7f3a', team_alias: 'Checkout' });
    await p.signIn('keys');
    await p.page.getByTestId('key-new').click();
    await p.page.getByTestId('key-form-key_alias').fill('checkout-prod');
    await p.page.getByTestId('key-form-team_id').selectOption({ label: 'Checkout (team_7f3a)' });
    await p.page.getByTestId('key-form-max_budget').fill('50');
    await p.page.getByTestId('key-form-budget_duration').fill('7d');
    await p.page.getByTestId('key-form-submit').click();
    await p.page.getByTestId('key-created-value').waitFor();

    const { data } = await p.api<{ data: Array<Record<string, unknown>> }>('GET', '/key/list');
    const made = data.find((k) => k.key_alias === 'checkout-prod')!;
    expect(made).toMatchObject({ team_id: 'team_7f3a', max_budget: 50, budget_duration: '7d' });
    const hash = made.key_hash as string;
    await p.seeText(`key-team-${hash}`, 'Checkout');
    expect(await p.textOf(`key-budget-${hash}-period`)).toBe('per 7d · resets in 7 d');
  });

  it("edits a key's rate limit and clears its budget", async () => {
    const { key_hash } = await newKey({ key_alias: 'edit-me', max_budget: 3 });
    await p.signIn('keys');
    await p.page.getByTestId(`key-edit-${key_hash}`).click();
    await p.page.getByTestId('key-form-rpm_limit').fill('60');
    await p.page.getByTestId('key-form-max_budget').fill('');
    await p.page.getByTestId('key-form-submit').click();
    await p.seeText(`key-budget-${key_hash}-text`, '$0.00 spent');
    const { info } = await p.api<KeyInfo>('GET', `/key/info?key=${key_hash}`);
    expect(info).toMatchObject({ rpm_limit: 60, max_budget: null, key_alias: 'edit-me' });
  });

  it('regenerates a key after a confirm step, showing the new secret once; the old one stops working', async () => {
    const { key: old, key_hash } = await newKey({ key_alias: 'rotate-me' });
    await p.signIn('keys');
    await p.page.getByTestId(`key-regenerate-${key_hash}`).click();
    await p.page.getByTestId(`key-regenerate-${key_hash}-confirm`).click();
    const fresh = (await p.page.getByTestId('key-created-value').textContent()) ?? '';
    expect(fresh).toMatch(/^sk-/);
    expect(fresh).not.toBe(old);
    expect(await p.textOf('key-created')).toContain('New secret of rotate-me');
    expect((await p.chat('gpt-4o', fresh)).status).toBe(200);
    expect((await p.chat('gpt-4o', old)).status).toBe(401);
    await p.page.getByTestId('key-created-dismiss').click();
    await p.seeNone('key-created-value');
  });

  it('blocks a key, marking its row, and unblocks it', async () => {
    const { key, key_hash } = await newKey({ key_alias: 'block-me' });
    await p.signIn('keys');
    await p.page.getByTestId(`key-block-${key_hash}`).click();
    await p.seeText(`key-status-${key_hash}`, 'blocked');
    expect(await p.page.getByTestId(`key-row-${key_hash}`).getAttribute('class')).toContain('blocked');
    expect((await p.chat('gpt-4o', key)).status).toBe(403);
    await p.page.getByTestId(`key-block-${key_hash}`).click();
    await p.seeText(`key-status-${key_hash}`, 'active');
    expect((await p.chat('gpt-4o', key)).status).toBe(200);
  });

  it('marks a key over its budget with a red bar and an over-budget status', async () => {
    const { key, key_hash } = await newKey({ key_alias: 'spent-out', max_budget: 0.000001 });
    expect((await p.chat('gpt-4o', key)).status).toBe(200);
    let spend = 0;
    await eventually(async () => {
      spend = (await p.api<KeyInfo>('GET', `/key/info?key=${key_hash}`)).info.spend as number;
      expect(spend).toBeGreaterThan(0.000001);
    });
    await p.signIn('keys');
    await p.seeText(`key-status-${key_hash}`, 'over budget');
    expect(await p.page.getByTestId(`key-budget-${key_hash}-bar`).getAttribute('data-level')).toBe('over');
    expect(await p.page.getByTestId(`key-row-${key_hash}`).getAttribute('class')).toContain('over');
    expect(await p.textOf(`key-budget-${key_hash}-text`)).toBe(`${money(spend)} of $0.000001`);
    // under a cent, two significant digits: not `$0.00`
    expect(money(spend)).toMatch(/^\$0\.0000\d{2}$/);
  });
});
