// The newcomer's demo: a Router spreading real HTTP calls over three deployments of one model group,
// served by the package's own mock provider. No keys, no network.
//   npm install && npm run demo
import { Router } from '@svc/router';
import { seededRandom, startMockProvider } from '@svc/router/testing';

const CALLS = 30;
const mock = await startMockProvider();
// the "busy" deployment answers every call with 429 and asks for a 1 s pause
mock.setBehavior('/busy', {
  status: 429,
  headers: { 'retry-after': '1' },
  error: { message: 'Rate limit reached' },
});

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
  { cooldown_time: 1 },
  { random: seededRandom(7) },
);

const failed = [];
router.on('failure', (e) => failed.push(`${e.model_id}:${e.error.status}`));

const rows = [];
for (let call = 1; call <= CALLS; call++) {
  failed.length = 0;
  try {
    const res = await router.acompletion({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: `call ${call}` }],
    });
    const h = res._hidden_params;
    rows.push({
      call,
      'served by': h.model_id,
      attempts: h.attempts,
      'failed first': failed.join(' ') || '-',
    });
  } catch (err) {
    rows.push({ call, 'served by': `(${err.name})`, attempts: '-', 'failed first': failed.join(' ') || '-' });
  }
}
console.log('\nWhich deployment served each call (weights east 3, west 1, busy 1; busy answers 429):');
console.table(rows);

const served = (id) => rows.filter((r) => r['served by'] === id).length;
console.log('Final counts per deployment:');
console.table(
  ['east', 'west', 'busy'].map((id) => ({
    deployment: id,
    served: served(id),
    'upstream requests': mock.hits(`/${id}/`),
  })),
);
const dropped = rows.filter((r) => String(r['served by']).startsWith('(')).length;
console.log(`${CALLS - dropped} of ${CALLS} calls served.`);

await router.close();
await mock.close();
