// Measures what `npm install @svc/router` (the library alone, not the proxy) costs an app, and checks
// that the installed package works:
//   node scripts/measure-install.mjs [--keep]
// Packs the library (prepack builds it), installs the tarball into an empty app in a temp folder (no
// devDependencies, no optional peers), then reports the size of node_modules and its package count
// (target: at most 40 MB; more fails), and runs a smoke test in the app: a Router call served by
// startMockProvider from @svc/router/testing, token counting without gpt-tokenizer, and the construction
// errors that name a missing optional peer. Needs the npm registry. Prints a summary and exits non-zero
// when a check fails.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
/** The most an install of the library may weigh (issue 23). */
const TARGET_MB = 40;
/** Server and database packages: the library must not bring any of them (they are the proxy's). */
const SERVER_PACKAGES = ['fastify', 'pg', '@electric-sql/pglite', 'pino', 'prom-client'];
const keep = process.argv.includes('--keep');

const npm = (args, cwd) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: process.env });

/** Bytes on disk under `dir` (blocks, like `du`), not counting nested node_modules when asked. */
function diskBytes(dir, skipNested = false) {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!(skipNested && entry.name === 'node_modules')) total += diskBytes(path, skipNested);
    } else if (entry.isFile()) total += statSync(path).blocks * 512;
  }
  return total;
}

const mb = (bytes) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** Every installed package (`node_modules/...` path -> its dependency names), from npm's own lockfile. */
function installedPackages(app) {
  const lock = JSON.parse(readFileSync(join(app, 'node_modules/.package-lock.json'), 'utf8'));
  return new Map(
    Object.entries(lock.packages)
      .filter(([path]) => path.startsWith('node_modules/'))
      .map(([path, info]) => [path, Object.keys({ ...info.dependencies, ...info.optionalDependencies })]),
  );
}

const SMOKE = `
import { ConfigError, MissingPeerError, Router } from '@svc/router';
import { startMockProvider } from '@svc/router/testing';
const results = {};
const mock = await startMockProvider();
const openai = (max) => ({
  model_name: 'gpt-4o',
  svc_params: { model: 'openai/gpt-4o', api_base: mock.url + '/v1', api_key: 'sk-smoke' },
  model_info: max ? { max_input_tokens: max } : {},
});
const router = new Router([openai()]);
const answer = await router.acompletion({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
results.call = answer.choices[0].message.role === 'assistant' ? 'served' : 'no answer';
await router.close();
// pre-call checks count tokens: without gpt-tokenizer, by the estimate
const checked = new Router([openai(50)], { enable_pre_call_checks: true });
await checked.acompletion({ model: 'gpt-4o', messages: [{ role: 'user', content: 'a short prompt' }] });
const long = 'word '.repeat(200);
const refused = await checked.acompletion({ model: 'gpt-4o', messages: [{ role: 'user', content: long }] }).catch((e) => e);
results.tokenCount = refused?.name === 'ContextWindowExceededError' ? 'estimate works' : String(refused);
await checked.close();
const construct = (list, settings = {}) => {
  try { new Router(list, settings).close(); return 'constructed'; }
  catch (e) { return (e instanceof ConfigError || e instanceof MissingPeerError ? '' : 'UNEXPECTED ') + e.message; }
};
const bedrock = (extra) => ({ model_name: 'b', svc_params: { model: 'bedrock/anthropic.claude-3-haiku-20240307-v1:0', aws_region_name: 'us-east-1', ...extra } });
const vertex = (extra) => ({ model_name: 'v', svc_params: { model: 'vertex_ai/gemini-2.5-flash', vertex_project: 'p', ...extra } });
results.bedrockIam = construct([bedrock({ aws_access_key_id: 'AKID', aws_secret_access_key: 'secret' })]);
results.bedrockApiKey = construct([bedrock({ api_key: 'bedrock-key' })]);
results.vertexAdc = construct([vertex({})]);
results.vertexApiKey = construct([vertex({ api_key: 'ya29.token' })]);
results.redis = construct([openai()], { redis_url: 'redis://127.0.0.1:6379' });
await mock.close();
console.log(JSON.stringify(results));
`;

const work = mkdtempSync(join(tmpdir(), 'svc-router-install-'));
try {
  const packed = JSON.parse(npm(['pack', '--json', '--pack-destination', work], root))[0];
  const tarball = join(work, packed.filename);
  const app = join(work, 'app');
  execFileSync('mkdir', [app]);
  writeFileSync(
    join(app, 'package.json'),
    JSON.stringify({ name: 'empty-app', private: true, type: 'module' }),
  );
  const started = performance.now();
  const install = spawnSync('npm', ['install', tarball, '--omit=dev', '--no-audit', '--no-fund'], {
    cwd: app,
    encoding: 'utf8',
  });
  if (install.status !== 0) throw new Error(`npm install failed:\n${install.stderr}`);
  const installLog = `${install.stdout}\n${install.stderr}`;
  const installSeconds = (performance.now() - started) / 1000;
  const packages = installedPackages(app);
  const all = [...packages.keys()];
  // as `du -sk node_modules` counts it (directories included), where du exists
  const du = spawnSync('du', ['-sk', 'node_modules'], { cwd: app, encoding: 'utf8' });
  const total =
    du.status === 0 ? Number.parseInt(du.stdout, 10) * 1024 : diskBytes(join(app, 'node_modules'));
  const servers = all.filter((p) => SERVER_PACKAGES.includes(p.replace(/^.*node_modules\//, '')));
  const smokeFile = join(app, 'smoke.mjs');
  writeFileSync(smokeFile, SMOKE);
  const smoke = JSON.parse(execFileSync(process.execPath, [smokeFile], { cwd: app, encoding: 'utf8' }));
  const engineWarnings = [...installLog.matchAll(/EBADENGINE\s+package: '([^']+)'/g)].map((m) => m[1]);

  const expect = {
    call: (v) => v === 'served',
    tokenCount: (v) => v === 'estimate works',
    bedrockIam: (v) => v.includes('needs aws4') && v.includes('npm install aws4'),
    bedrockApiKey: (v) => v === 'constructed',
    vertexAdc: (v) =>
      v.includes('needs google-auth-library') && v.includes('npm install google-auth-library'),
    vertexApiKey: (v) => v === 'constructed',
    redis: (v) => v.includes('needs ioredis') && v.includes('npm install ioredis'),
  };
  const failed = Object.entries(expect).filter(([key, ok]) => !ok(String(smoke[key])));

  console.log(`tarball: ${packed.filename}, ${mb(packed.size)} packed, ${packed.entryCount} files`);
  console.log(
    `install: ${installSeconds.toFixed(1)} s, EBADENGINE warnings: ${engineWarnings.join(', ') || 'none'}`,
  );
  const tooBig = total > TARGET_MB * 1024 * 1024;
  console.log(
    `${tooBig ? 'FAIL' : 'ok  '} node_modules: ${mb(total)} (target <= ${TARGET_MB} MB), ${all.length} packages`,
  );
  console.log(`${servers.length > 0 ? 'FAIL' : 'ok  '} server packages: ${servers.join(', ') || 'none'}`);
  const largest = all
    .map((p) => [p.replace(/^.*node_modules\//, ''), diskBytes(join(app, p), true)])
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6);
  console.log(`  largest: ${largest.map(([n, b]) => `${n} ${mb(b)}`).join(', ')}`);
  console.log('smoke test in the app:');
  for (const [key, value] of Object.entries(smoke))
    console.log(`  ${failed.some(([k]) => k === key) ? 'FAIL' : 'ok  '} ${key}: ${value}`);
  if (keep) console.log(`kept: ${app}`);
  if (failed.length > 0 || tooBig || servers.length > 0) process.exitCode = 1;
} finally {
  if (!keep) rmSync(work, { recursive: true, force: true });
}
