import { ConcurrencyLimiter } from '../src/checks/concurrency-limiter.js';
import { buildDeployments } from '../src/config/build-deployments.js';
import { leastBusy } from '../src/strategies/least-busy.js';
import { testDeployment } from '../src/testing/test-deployment.js';

const ds = buildDeployments(
  Array.from({ length: 1000 }, (_, i) => ({
    model_name: 'b',
    svc_params: { model: 'openai/gpt-4o', api_key: 'sk-x' },
    model_info: { id: `d${i}` },
  })),
  {},
  {},
);
const lim = new ConcurrencyLimiter();
ds.forEach((d, i) => {
  for (let k = 0; k < i % 3; k++) lim.tryAcquire(d.id, undefined);
});
const time = (label: string, f: () => unknown) => {
  for (let r = 0; r < 3; r++) {
    const n = 20000;
    const c = process.cpuUsage();
    for (let i = 0; i < n; i++) f();
    const u = process.cpuUsage(c);
    if (r === 2) console.log(label, ((u.user + u.system) / n).toFixed(2), 'us');
  }
};
time('map gets', () => {
  let s = 0;
  for (const d of ds) s += lim.inFlight(d.id);
  return s;
});
const lb = leastBusy({ random: Math.random, inFlight: (id) => lim.inFlight(id) });
time('least-busy', () => lb.select(ds, { model: 'b', request: {} }));
const arr = new Float64Array(1000);
time('plain loop', () => {
  let m = Infinity;
  for (let i = 0; i < 1000; i++) {
    arr[i] = i % 7;
    if (arr[i]! < m) m = arr[i]!;
  }
  return m;
});
void testDeployment;
