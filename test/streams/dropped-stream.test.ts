import { describe, expect, it } from 'vitest';
import { Router } from '../../src/index.js';
import { deployment, USER, useMock } from '../helpers.js';
import { exposeGc } from '../support/expose-gc.js';

const mock = useMock();
const turn = () => new Promise((resolve) => setImmediate(resolve));

async function inFlightAfterCollection(router: Router, gc: () => void): Promise<number> {
  for (let i = 0; i < 20; i++) {
    gc();
    await turn(); // finalization callbacks run in a task of their own after the collection
    const inFlight = router.getDeployments()[0]!.in_flight;
    if (inFlight === 0) return 0;
  }
  return router.getDeployments()[0]!.in_flight;
}

describe('a stream its caller drops', () => {
  it('gives its deployment slot back once it is collected, when it was never read', async () => {
    const router = new Router([deployment(mock, 'a')]);
    const gc = exposeGc();
    // in a function of its own, so that nothing on this stack keeps the stream
    await (async () => {
      await router.acompletion({ model: 'gpt-4o', messages: USER, stream: true });
    })();
    await turn(); // past the turn in which a caller would have started reading it
    expect(router.getDeployments()[0]!.in_flight).toBe(1);
    expect(await inFlightAfterCollection(router, gc)).toBe(0);
    await router.close();
  });

  it('gives its slot back when it ends, read at once, without waiting for a collection', async () => {
    const router = new Router([deployment(mock, 'a')]);
    const stream = await router.acompletion({ model: 'gpt-4o', messages: USER, stream: true });
    for await (const _ of stream) {
      // read to its end
    }
    expect(router.getDeployments()[0]!.in_flight).toBe(0);
    await router.close();
  });
});
