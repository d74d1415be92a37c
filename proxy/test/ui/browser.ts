import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { MASTER_KEY, startTestProxy, type TestProxy } from '../harness.js';

// Debian's chromium, which .ci/run installs when it is missing; anywhere else, say so and skip.
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  console.warn(
    `admin page browser tests skipped: no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`,
  );
}
export const ARTIFACTS = join(import.meta.dirname, '../artifacts');
/** Where the screenshots docs/ui.md shows are written (`UPDATE_SCREENSHOTS=1`). */
export const DOC_IMAGES = join(import.meta.dirname, '../../docs/images');

/** One proxy (PGlite) and one headless Chromium for a test file, with what its tests read the page by. */
export interface AdminPage {
  t: TestProxy;
  page: Page;
  /** An admin call to the proxy that must answer 200. */
  api<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T>;
  /** A chat call with `key` (default the master key), optionally tagged. */
  chat(model: string, key?: string, tags?: string[]): Promise<Response>;
  textOf(testId: string): Promise<string | null>;
  /** Waits until the element's text is `text`. */
  seeText(testId: string, text: string, timeout?: number): Promise<void>;
  /** Waits until no element has the test id. */
  seeNone(testId: string): Promise<void>;
  /** Opens the page signed in afresh on the panel `panel` (`#keys`). */
  signIn(panel?: string): Promise<void>;
}

/**
 * Registers the file's hooks: a proxy on PGlite started with `options`, one browser, a screenshot per test
 * under test/artifacts/, and a check that the page's CSP blocked nothing.
 */
export function useAdminPage(options: Parameters<typeof startTestProxy>[1] = {}): AdminPage {
  let browser: BrowserContext;
  let profile: string;
  const cspViolations: string[] = [];
  const self = {} as AdminPage;

  self.api = async <T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${self.t.url}${path}`, {
      method,
      headers: { ...self.t.admin, ...(body !== undefined && { 'content-type': 'application/json' }) },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    });
    expect(res.status, `${method} ${path}: ${res.status === 200 ? '' : await res.clone().text()}`).toBe(200);
    return (await res.json()) as T;
  };
  self.chat = (model, key = MASTER_KEY, tags) =>
    fetch(`${self.t.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        model,
        messages: [{ role: 'user', content: 'hi' }],
        ...(tags && { metadata: { tags } }),
      }),
    });
  // playwright-core has no assertions of its own: poll the page with vitest's expect.poll
  self.textOf = (testId) => self.page.getByTestId(testId).first().textContent({ timeout: 5_000 });
  self.seeText = (testId, text, timeout = 5_000) =>
    expect.poll(() => self.textOf(testId), { timeout, interval: 50 }).toBe(text);
  self.seeNone = (testId) =>
    expect.poll(() => self.page.getByTestId(testId).count(), { timeout: 5_000, interval: 50 }).toBe(0);
  self.signIn = async (panel = 'keys') => {
    const { page } = self;
    await page.goto(`${self.t.url}/ui#${panel}`);
    const signOut = page.getByTestId('signout');
    if ((await signOut.count()) > 0) await signOut.click();
    await page.getByTestId('signin-token').fill(MASTER_KEY);
    await page.getByTestId('signin-submit').click();
    await page.locator(`#${panel}:not([hidden])`).waitFor();
  };

  beforeAll(async () => {
    await mkdir(ARTIFACTS, { recursive: true });
    self.t = await startTestProxy('pglite', options);
    profile = await mkdtemp(join(tmpdir(), 'svc-chromium-'));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1280, height: 800 },
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
    self.page = browser.pages()[0] ?? (await browser.newPage());
    self.page.setDefaultTimeout(5_000);
    self.page.on('console', (message) => {
      if (message.text().includes('Content Security Policy')) cspViolations.push(message.text());
    });
    // an alert would mean a value from the API ran as script
    self.page.on('dialog', (dialog) => {
      cspViolations.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
  });
  afterEach(async (context) => {
    const name = context.task.name
      .replace(/[^a-z0-9]+/gi, '-')
      .toLowerCase()
      .slice(0, 80);
    await self.page.screenshot({ path: join(ARTIFACTS, `admin-${name}.png`), fullPage: true });
    // everything the page runs and styles comes from its own origin, so the strict CSP blocks nothing
    expect(cspViolations).toEqual([]);
  });
  afterAll(async () => {
    await browser?.close();
    await self.t?.close();
    if (profile) await rm(profile, { recursive: true, force: true });
  });
  return self;
}
