// The newcomer's demo: a Router spreading real HTTP calls over three deployments of one model group,
// served by the package's own mock provider. No keys, no network.
//   npm install && npm run demo
import { setTimeout as sleep } from 'node:timers/promises';
import { Router } from '@svc/router';
import { seededRandom, startMockProvider } from '@svc/router/testing';

const CALLS = 30;
const mock = await startMockProvider();
// "busy" answers every call with 429 (rate limited)
mock.setBehavior('/busy', { status: 429, error: { message: 'Rate limit reached' } });

const deployment = (name, weight) => ({
  model_name: 'gpt-4o',
  svc_params: {
    model: 'openai/gpt-4o',
    api_base: `${mock.url}/${name}/v1`,
    api_key: `sk-demo-${name}-key`,
    weight,
  },
  model_info: { id: name },
});
const router = new Router(
  [deployment('east', 3), deployment('west', 1), deployment('busy', 1)],
  { cooldown_time: 0.25 }, // seconds a failing deployment sits out before one trial call
  { random: seededRandom(7) },
);

let notes = [];
router.on('failure', (e) => notes.push(`${e.model_id} answered ${e.error.status}`));
router.on('cooldown', (e) => notes.push(`${e.model_id} cools down for ${e.cooldown_time} s`));

const rows = [];
for (let call = 1; call <= CALLS; call++) {
  notes = [];
  try {
    const res = await router.acompletion({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: `call ${call}` }],
    });
    rows.push([call, res._hidden_params.model_id, res._hidden_params.attempts, notes.join('; ')]);
  } catch (err) {
    rows.push([call, `(${err.name})`, '-', notes.join('; ')]);
  }
  await sleep(25);
}

const table = (header, lines) => {
  const widths = header.map((h, i) => Math.max(String(h).length, ...lines.map((l) => String(l[i]).length)));
  const fmt = (cells) =>
    cells
      .map((c, i) => String(c).padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  console.log(fmt(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const line of lines) console.log(fmt(line));
};

console.log(
  '\nOne model group "gpt-4o": east (weight 3), west (weight 1), busy (weight 1, always answers 429)\n',
);
table(['call', 'served by', 'attempts', 'what happened on the way'], rows);

console.log('\nFinal counts per deployment\n');
const served = (id) => rows.filter((r) => r[1] === id).length;
table(
  ['deployment', 'served', 'upstream requests'],
  ['east', 'west', 'busy'].map((id) => [id, served(id), mock.hits(`/${id}/`)]),
);
const ok = rows.filter((r) => !String(r[1]).startsWith('(')).length;
console.log(`\n${ok} of ${CALLS} calls served. A failed call is retried on a peer at once; the failing`);
console.log('deployment cools down, then gets a single trial call before taking traffic again.');

await router.close();
await mock.close();
