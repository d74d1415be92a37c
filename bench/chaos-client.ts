// One measured client of bench/chaos.ts, in its own process. Prints one JSON line of results.
import { Router, type RouterError, type RouterSettings } from '@svc/router';
import { load, quantile } from './lib/stats.js';

const [url, countArg, concurrencyArg, settingsArg] = process.argv.slice(2);
const count = Number(countArg);
const names = Array.from({ length: 10 }, (_, i) => `d${i + 1}`);
const router = new Router(
  names.map((name) => ({
    model_name: 'gpt-4o',
    svc_params: { model: 'openai/gpt-4o', api_base: `${url}/${name}/v1`, api_key: 'sk-bench-key' },
    model_info: { id: name },
  })),
  JSON.parse(settingsArg ?? '{}') as RouterSettings,
);

let served = 0;
let attempts = 0;
const errors: Record<string, number> = {};
const messages = [{ role: 'user' as const, content: 'Say hello.' }];
const task = async () => {
  try {
    const res = await router.acompletion({ model: 'gpt-4o', messages });
    served += 1;
    attempts += res._hidden_params.attempts;
  } catch (err) {
    const error = err as RouterError;
    errors[error.name] = (errors[error.name] ?? 0) + 1;
    attempts += (error.attempts?.length ?? 0) + 1;
  }
};
const { latenciesUs, seconds } = await load(count, Number(concurrencyArg), task);
await router.close();
process.stdout.write(
  `${JSON.stringify({
    sent: count,
    served,
    attemptsPerCall: attempts / count,
    p50: quantile(latenciesUs, 0.5),
    p99: quantile(latenciesUs, 0.99),
    rps: count / seconds,
    errors,
  })}\n`,
);
