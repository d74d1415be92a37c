import type {
  CooldownEvent,
  DeploymentConfig,
  FallbackEvent,
  Router,
  RouterSettings,
} from '../../src/index.js';
import { Router as RouterClass } from '../../src/index.js';
import type { MockProvider } from '../../src/testing/index.js';
import { deployment, USER } from '../helpers.js';

export { deployment, USER };

/** Always picks the first available candidate: makes "which deployment is tried first" deterministic. */
export const firstChoice = () => 0;

/**
 * A clock running at the wall clock's pace from the start of a minute: the failure counts behind
 * `allowed_fails` are per wall-clock minute, and a test that crossed into the next one would see
 * them start again at zero.
 */
export function minuteStartClock(): () => number {
  const shift = Date.now() % 60_000;
  return () => Date.now() - shift;
}

/** A router whose events are recorded, on a clock that starts a minute (`minuteStartClock`). */
export function recordingRouter(list: DeploymentConfig[], settings: RouterSettings = {}) {
  const router = new RouterClass(list, settings, { random: firstChoice, now: minuteStartClock() });
  const cooldowns: CooldownEvent[] = [];
  const fallbacks: FallbackEvent[] = [];
  router.on('cooldown', (e) => cooldowns.push(e));
  router.on('fallback', (e) => fallbacks.push(e));
  return { router, cooldowns, fallbacks };
}

export const ask = (router: Router, model = 'gpt-4o', extra: Record<string, unknown> = {}) =>
  router.acompletion({ model, messages: USER, ...extra });

/** Sequential calls; returns the model_id that served each (or the error name). */
export async function serve(router: Router, calls: number, model = 'gpt-4o'): Promise<string[]> {
  const served: string[] = [];
  for (let i = 0; i < calls; i++) {
    try {
      served.push((await ask(router, model))._hidden_params.model_id);
    } catch (err) {
      served.push((err as Error).name);
    }
  }
  return served;
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Paths the mock saw, as deployment names (the first path segment). */
export const trail = (mock: MockProvider) => mock.requests.map((r) => r.path.split('/')[1]);
