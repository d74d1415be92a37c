// bench/jwt.ts (npm run bench:jwt): the cost of verifying a token once the keys are cached, and proof
// that no request makes a network call then. A real OpenID provider (oidc-provider) on a loopback port
// serves discovery and JWKS and counts every request it gets.
//
// Measured one call at a time (no queueing), per algorithm, in BENCH_ROUNDS rounds whose order rotates
// (machine noise falls on every row alike); each row prints the median over rounds of its p50 and p99:
//   jose baseline : jose's jwtVerify with a local key set (the floor: signature and claims only)
//   verifyJwt     : this module's verification with its remote key sets, keys cached
//   authenticate  : the whole createJwtAuth().authenticate (path, verification, team lookup, routes)
import { createLocalJWKSet, jwtVerify } from 'jose';
import { createJwtAuth, MemoryJwtDirectory } from '../src/jwt/index.js';
import { KeySets } from '../src/jwt/key-sets.js';
import { createVerifier } from '../src/jwt/verify.js';
import { startIdp } from '../test/support/jwt/idp.js';
import { median, quantile } from './lib/stats.js';

const COUNT = Number(process.env.BENCH_COUNT ?? 20_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP = Math.min(2_000, COUNT);
/** The target applies to RS256, the signing default of Keycloak, Entra ID, Okta and Kubernetes. */
const TARGET_P50_US = 100;

async function measure(task: () => Promise<unknown>): Promise<{ p50: number; p99: number }> {
  for (let i = 0; i < WARMUP; i++) await task();
  const latencies = new Float64Array(COUNT);
  for (let i = 0; i < COUNT; i++) {
    const t0 = performance.now();
    await task();
    latencies[i] = (performance.now() - t0) * 1000;
  }
  latencies.sort();
  return { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) };
}

const totalHits = (hits: Record<string, number>) => Object.values(hits).reduce((a, b) => a + b, 0);

const idp = await startIdp();
const rows: string[] = [];
const verifyP50: Record<string, number> = {};
let networkCalls = 0;
try {
  const directory = new MemoryJwtDirectory({ teams: [{ team_id: 'search', models: ['gpt-4o'] }] });
  const auth = createJwtAuth({ public_key_url: idp.discoveryUrl, audience: 'api://gateway' }, directory);
  const keySets = new KeySets([idp.discoveryUrl], { ttlMs: 600_000, cooldownMs: 30_000, timeoutMs: 5_000 });
  const verify = createVerifier(keySets, { audiences: ['api://gateway'], clockToleranceSeconds: 5 });
  const jwks = createLocalJWKSet({ keys: idp.keys.map((k) => k.publicJwk) });
  const claims = { client_id: 'search', aud: 'api://gateway', sub: 'svc-search' };

  for (const key of idp.keys) {
    const token = await idp.sign(claims, {
      alg: key.alg,
      kid: key.kid,
      key: key.privateKey,
      expiresIn: 3600,
    });
    const req = {
      headers: { authorization: `Bearer ${token}` },
      path: '/v1/chat/completions',
      model: 'gpt-4o',
    };
    // the first calls fetch discovery and keys; from here on every request must be served from the cache
    await verify(token);
    await auth.authenticate(req);
    const before = totalHits(idp.hits);

    const tasks: [string, () => Promise<unknown>][] = [
      ['jose baseline (local keys)', () => jwtVerify(token, jwks, { audience: 'api://gateway' })],
      ['verifyJwt (cached remote keys)', () => verify(token)],
      ['authenticate (team, routes, model)', () => auth.authenticate(req)],
    ];
    const results = tasks.map(() => ({ p50: [] as number[], p99: [] as number[] }));
    for (let round = 0; round < ROUNDS; round++) {
      for (let i = 0; i < tasks.length; i++) {
        const index = (i + round) % tasks.length;
        const r = await measure(tasks[index]![1]);
        results[index]!.p50.push(r.p50);
        results[index]!.p99.push(r.p99);
      }
    }
    networkCalls += totalHits(idp.hits) - before;

    const fmt = (n: number) => n.toFixed(1).padStart(8);
    tasks.forEach(([name], i) => {
      const p50 = median(results[i]!.p50);
      if (i === 1) verifyP50[key.alg] = p50;
      rows.push(`| ${key.alg} | ${name} | ${fmt(p50)} | ${fmt(median(results[i]!.p99))} |`);
    });
  }
} finally {
  await idp.close();
}

console.log(
  `jwt: ${COUNT} calls per row and round after ${WARMUP} warm-up calls, ${ROUNDS} rounds, one call at a time, Node ${process.version}`,
);
console.log('| alg | what | p50 (us) | p99 (us) |');
console.log('|---|---|---:|---:|');
for (const row of rows) console.log(row);
console.log(`identity provider requests during the measured calls: ${networkCalls}`);
const rs256 = verifyP50.RS256 ?? Number.NaN;
console.log(
  `verification p50, RS256 with cached keys: ${rs256.toFixed(1)} us (target <= ${TARGET_P50_US} us)`,
);
if (networkCalls !== 0 || !(rs256 <= TARGET_P50_US)) process.exitCode = 1;
