import { once } from 'node:events';
import { connect } from 'node:net';
import { expect, it } from 'vitest';
import { FRESH_CONNECTION_GRACE_MS } from '../../src/http/connection-drain.js';
import { startTestProxy } from '../harness.js';

// A client's pool opens connections ahead of its requests; Node counts one that has sent nothing as
// busy, and the shutdown waited for it until drain_timeout.
it('closes a connection that has sent no request soon after a shutdown starts, not at drain_timeout', async () => {
  const t = await startTestProxy('pglite', { general_settings: { drain_timeout: 20 } });
  const { hostname, port } = new URL(t.url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  const closedByProxy = once(socket, 'close');
  const started = performance.now();
  await t.close();
  await closedByProxy;
  const took = performance.now() - started;
  expect(took).toBeGreaterThanOrEqual(FRESH_CONNECTION_GRACE_MS - 50);
  expect(took).toBeLessThan(FRESH_CONNECTION_GRACE_MS + 4_000);
}, 30_000);
