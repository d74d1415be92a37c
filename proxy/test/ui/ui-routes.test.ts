import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { registerUiRoutes, UI_CSP } from '../../src/routes/ui.js';

// The assets come from dist/ui/, built by the suite's global setup (test/global-setup.ts).
describe('GET /ui', () => {
  const app = Fastify();
  registerUiRoutes(app);
  afterAll(() => app.close());

  it('serves the page without auth, under a strict CSP', async () => {
    const res = await app.inject({ method: 'GET', url: '/ui' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toBe(UI_CSP);
    expect(UI_CSP).toContain("script-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.body).toContain('<script type="module" src="/ui/app.js"></script>');
  });

  it('serves the script and the stylesheet with their types and the same headers', async () => {
    const js = await app.inject({ method: 'GET', url: '/ui/app.js' });
    const css = await app.inject({ method: 'GET', url: '/ui/app.css' });
    expect([js.statusCode, css.statusCode]).toEqual([200, 200]);
    expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(js.headers['content-security-policy']).toBe(UI_CSP);
  });

  it('has no inline script or style for the CSP to block', async () => {
    const html = (await app.inject({ method: 'GET', url: '/ui' })).body;
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/\sstyle=|<style/);
  });

  it('answers 503 saying to run npm run build when the assets are missing', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'svc-ui-'));
    const bare = Fastify();
    registerUiRoutes(bare, `${empty}/`);
    const res = await bare.inject({ method: 'GET', url: '/ui' });
    await bare.close();
    await rm(empty, { recursive: true, force: true });
    expect(res.statusCode).toBe(503);
    expect(res.body).toContain('npm run build');
  });
});
