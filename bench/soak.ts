// bench/soak.ts (npm run soak; SOAK_QUICK=1 for a quick run, SOAK_ONLY=name,... for some scenarios):
// does every call a healthy deployment could serve get served, whatever its neighbour does? Each
// scenario puts a misbehaving deployment (or caller) next to a healthy one and judges every call:
// served, refused or aborted by design, lost (failed while a healthy deployment could serve it), a hang
// (not settled within the scenario's bound), and every secret seen in anything the router shows. The
// upstream (mock providers and a leaking echo) and the client (the built package) run in their own
// processes. Prints a Markdown table.
import { createInterface } from 'node:readline';
import { firstLine, spawnScript } from './lib/child.js';
import type { ScenarioResult } from './soak/client.js';
import { SCENARIOS } from './soak/scenarios.js';

const quick = process.env.SOAK_QUICK === '1';
const LIMIT_MS = quick ? 120_000 : 600_000;

const upstream = spawnScript('soak/upstream.ts', []);
const results: ScenarioResult[] = [];
const started = performance.now();
try {
  const urls = await firstLine(upstream);
  const client = spawnScript('soak/client.ts', [urls]);
  const limit = setTimeout(() => {
    process.stderr.write(`soak: stopped after ${LIMIT_MS / 1000} s: the client itself hung\n`);
    client.kill('SIGKILL');
  }, LIMIT_MS);
  for await (const line of createInterface({ input: client.stdout! })) {
    const result = JSON.parse(line) as ScenarioResult;
    results.push(result);
    process.stderr.write(
      `soak: ${result.name}: ${result.served}/${result.calls} served, ${result.lost} lost\n`,
    );
  }
  clearTimeout(limit);
} finally {
  upstream.kill('SIGTERM');
}

const seconds = (performance.now() - started) / 1000;
const ms = (n: number) => n.toFixed(1);
const total = (key: 'calls' | 'lost' | 'hangs' | 'secretsFound') => results.reduce((n, r) => n + r[key], 0);

console.log(
  `soak (${quick ? 'quick' : 'full'}): ${results.length} scenarios, ${total('calls')} calls, ${seconds.toFixed(0)} s, ` +
    `node ${process.version}, ${new Date().toISOString().slice(0, 10)}`,
);
console.log();
console.log(
  '| scenario | calls | served | refused or aborted by design | lost | hangs | secrets found | p50 (ms) | p99 (ms) | notes |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
for (const r of results) {
  console.log(
    `| ${r.name} | ${r.calls} | ${r.served} | ${r.byDesign} | ${r.lost} | ${r.hangs} | ${r.secretsFound} | ${ms(r.p50Ms)} | ${ms(r.p99Ms)} | ${r.notes.join('; ')} |`,
  );
}
console.log(
  `| **total** | ${total('calls')} | ${results.reduce((n, r) => n + r.served, 0)} | ${results.reduce((n, r) => n + r.byDesign, 0)} | ${total('lost')} | ${total('hangs')} | ${total('secretsFound')} | | | |`,
);
console.log();
console.log('What each scenario does and checks:');
console.log();
for (const s of SCENARIOS)
  console.log(`- **${s.name}**: ${s.what}. Checks: ${s.checks}. Bound for a hang: ${s.boundMs / 1000} s.`);
if (results.length < SCENARIOS.length && !process.env.SOAK_ONLY) process.exitCode = 1;
