import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { money } from '../../ui/src/format.js';
import { eventually, mockDeployment } from '../harness.js';
import { DOC_IMAGES, hasChromium, useAdminPage } from './browser.js';

type ReportRow = { day: string; group: string | null; spend: number; requests: number };
type Log = { call_id: string; key_hash: string | null; cost: number };

describe.skipIf(!hasChromium)('admin page spend chart and spend log', () => {
  const p = useAdminPage({
    models: (mock) => [mockDeployment(mock, 'east'), mockDeployment(mock, 'west', 'gpt-4o-mini')],
  });
  const today = new Date().toISOString().slice(0, 10);
  const report = async (groupBy: string) =>
    (
      await p.api<{ data: ReportRow[] }>(
        'GET',
        `/spend/report?start_date=${today}&end_date=${today}&group_by=${groupBy}`,
      )
    ).data;
  let search: { key: string; key_hash: string };
  let ads: { key: string; key_hash: string };

  // 3 calls of `search-bot` (team Search, user ada, tag checkout), 2 of `ads-bot` (team Ads, the mini
  // model, tag prod), 25 with the master key: 30 rows, two pages of the log
  beforeAll(async () => {
    await p.api('POST', '/team/new', { team_id: 'team_a1', team_alias: 'Search' });
    // budgets, an over-budget team and a blocked key, for the screenshots
    await p.api('POST', '/team/new', {
      team_id: 'team_b2',
      team_alias: 'Ads',
      max_budget: 0.00005,
      budget_duration: '1mo',
    });
    search = await p.api('POST', '/key/generate', {
      key_alias: 'search-bot',
      team_id: 'team_a1',
      user_id: 'ada',
      max_budget: 0.0001,
      budget_duration: '30d',
      rpm_limit: 600,
    });
    ads = await p.api('POST', '/key/generate', {
      key_alias: 'ads-bot',
      team_id: 'team_b2',
      models: ['gpt-4o-mini'],
    });
    const old = await p.api<{ key_hash: string }>('POST', '/key/generate', {
      key_alias: 'old-cron',
      max_budget: 20,
    });
    await p.api('POST', '/key/block', { key: old.key_hash });
    for (let i = 0; i < 3; i++) expect((await p.chat('gpt-4o', search.key, ['checkout'])).status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await p.chat('gpt-4o-mini', ads.key, ['prod'])).status).toBe(200);
    for (let i = 0; i < 25; i++) expect((await p.chat('gpt-4o')).status).toBe(200);
    await eventually(async () => expect(await p.api<Log[]>('GET', '/spend/logs')).toHaveLength(30), 5_000);
  });

  const logRows = () => p.page.getByTestId('log-table').locator('tbody tr');
  const logKeys = async () => (await logRows().locator('td:nth-child(2)').allTextContents()).sort();

  it("names teams by alias in the chart's totals, with the spend /spend/report sums", async () => {
    const rows = await report('team');
    await p.signIn('spend');
    for (const [id, alias] of [
      ['team_a1', 'Search'],
      ['team_b2', 'Ads'],
    ]) {
      const row = rows.find((r) => r.group === id)!;
      await p.seeText(`spend-total-${id}-spend`, money(row.spend));
      expect(await p.textOf(`spend-total-${id}`)).toContain(alias);
      const bar = p.page.locator(`[data-testid="spend-bar-${today}-${id}"] title`);
      expect(await bar.textContent()).toBe(
        `${today} · ${alias}: ${money(row.spend)} (${row.requests} requests)`,
      );
    }
    const all = rows.reduce((s, r) => s + r.spend, 0);
    expect(await p.textOf('spend-total-all-spend')).toBe(money(all));
  });

  it("draws a value axis with gridlines past the highest day, and today's total over its bar", async () => {
    const all = (await report('model')).reduce((s, r) => s + r.spend, 0);
    await p.signIn('spend');
    await p.page.getByTestId('spend-chart').waitFor();
    const ticks = await p.page.getByTestId('spend-tick').allTextContents();
    expect(ticks[0]).toBe('$0.00');
    expect(ticks.length).toBeGreaterThanOrEqual(3);
    const top = Number(ticks.at(-1)!.replace('$', ''));
    expect(top).toBeGreaterThanOrEqual(all);
    expect(await p.page.locator('[data-testid="spend-chart"] line.grid').count()).toBe(ticks.length - 1);
    expect(await p.textOf(`spend-day-total-${today}`)).toBe(money(all));
  });

  it('fills the width of its panel', async () => {
    await p.signIn('spend');
    const chart = await p.page.getByTestId('spend-chart').boundingBox();
    const panel = await p.page.locator('#spend .panel-body').boundingBox();
    expect(chart!.width).toBeGreaterThan(panel!.width - 4);
    expect(chart!.width).toBeLessThanOrEqual(panel!.width);
  });

  it('sums spend by tag as /spend/report?group_by=tag does', async () => {
    const rows = await report('tag');
    await p.signIn('spend');
    await p.page.getByTestId('spend-group-tag').click();
    for (const tag of ['checkout', 'prod']) {
      const row = rows.find((r) => r.group === tag)!;
      await p.seeText(`spend-total-${tag}-spend`, money(row.spend));
      expect(await p.textOf(`spend-total-${tag}-requests`)).toBe(String(row.requests));
    }
  });

  it('lists the newest 25 calls with their key by alias and cost, and pages to the rest', async () => {
    const logs = await p.api<Log[]>('GET', '/spend/logs');
    await p.signIn('logs');
    await p.seeText('logs-range', ' rows 1–25 ');
    expect(await logRows().count()).toBe(25);
    const newest = logs[0]!;
    expect(await p.textOf(`log-cost-${newest.call_id}`)).toBe(money(newest.cost));
    await p.page.getByTestId('logs-next').click();
    await p.seeText('logs-range', ' rows 26–30 ');
    expect(await logRows().count()).toBe(5);
    expect(await logKeys()).toEqual(['ads-bot', 'ads-bot', 'search-bot', 'search-bot', 'search-bot']);
    expect(await p.page.getByTestId('logs-next').isDisabled()).toBe(true);
  });

  it('filters the log by a key chosen by alias', async () => {
    await p.signIn('logs');
    await p.page.getByTestId('logs-filter-key').selectOption({ label: 'ads-bot' });
    await p.page.getByTestId('logs-apply').click();
    await p.seeText('logs-range', ' rows 1–2 ');
    expect(await logKeys()).toEqual(['ads-bot', 'ads-bot']);
  });

  it('filters the log by a team chosen by alias', async () => {
    await p.signIn('logs');
    await p.page.getByTestId('logs-filter-team_id').selectOption({ label: 'Search' });
    await p.page.getByTestId('logs-apply').click();
    await p.seeText('logs-range', ' rows 1–3 ');
    expect(await logKeys()).toEqual(['search-bot', 'search-bot', 'search-bot']);
  });

  it('filters the log by user', async () => {
    await p.signIn('logs');
    await p.page.getByTestId('logs-filter-user_id').fill('ada');
    await p.page.getByTestId('logs-apply').click();
    await p.seeText('logs-range', ' rows 1–3 ');
  });

  it('filters the log by model', async () => {
    await p.signIn('logs');
    await p.page.getByTestId('logs-filter-model').fill('gpt-4o-mini');
    await p.page.getByTestId('logs-apply').click();
    await p.seeText('logs-range', ' rows 1–2 ');
    expect(await logKeys()).toEqual(['ads-bot', 'ads-bot']);
  });

  it('filters the log by tag', async () => {
    await p.signIn('logs');
    await p.page.getByTestId('logs-filter-tag').fill('checkout');
    await p.page.getByTestId('logs-apply').click();
    await p.seeText('logs-range', ' rows 1–3 ');
    expect(await logKeys()).toEqual(['search-bot', 'search-bot', 'search-bot']);
  });

  it('filters the log by days, saying when none match', async () => {
    await p.signIn('logs');
    await p.page.getByTestId('logs-filter-start_date').fill('2020-01-01');
    await p.page.getByTestId('logs-filter-end_date').fill('2020-01-31');
    await p.page.getByTestId('logs-apply').click();
    await p.seeText('logs-empty', 'No calls match these filters.');
    await p.page.getByTestId('logs-clear').click();
    await p.seeText('logs-range', ' rows 1–25 ');
  });

  it('fits a 375-pixel phone screen without scrolling the page sideways', async () => {
    // UPDATE_SCREENSHOTS=1 writes the screenshots docs/ui.md shows
    const save = process.env.UPDATE_SCREENSHOTS === '1';
    if (save) await mkdir(DOC_IMAGES, { recursive: true });
    const shot = async (name: string) => {
      if (save) await p.page.screenshot({ path: join(DOC_IMAGES, name), fullPage: true });
    };
    try {
      for (const panel of ['keys', 'teams', 'spend', 'logs', 'health']) {
        await p.page.setViewportSize({ width: 1280, height: 800 });
        await p.signIn(panel);
        await p.page.waitForLoadState('networkidle');
        await shot(`ui-${panel}.png`);
        await p.page.setViewportSize({ width: 375, height: 740 });
        await p.page.waitForTimeout(100); // the chart redraws on resize
        // an expression, not a function: this file is typed without the DOM library
        const overflow = await p.page.evaluate<number>(
          'document.documentElement.scrollWidth - window.innerWidth',
        );
        expect(overflow, panel).toBeLessThanOrEqual(0);
        await shot(`ui-${panel}-phone.png`);
      }
    } finally {
      await p.page.setViewportSize({ width: 1280, height: 800 });
    }
  });
});
