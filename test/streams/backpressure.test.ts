import { afterEach, describe, expect, it } from 'vitest';
import { Router } from '../../src/index.js';
import { settled, startFloodingUpstream, until } from '../support/flooding-upstream.js';

/** 64 MB: far more than any socket or stream buffer holds. */
const TOTAL_BYTES = 64 * 1024 * 1024;
/** What the sockets and the body's buffer may hold between the upstream and a caller who stopped. */
const BOUND_BYTES = 16 * 1024 * 1024;

describe('a streamed answer whose caller stops reading', () => {
  let router: Router | undefined;
  let close: (() => void) | undefined;
  afterEach(async () => {
    await router?.close();
    close?.();
  });

  it('holds the upstream read: the upstream is blocked and what is buffered stays bounded', async () => {
    const upstream = await startFloodingUpstream(TOTAL_BYTES);
    close = upstream.close;
    router = new Router([
      {
        model_name: 'm',
        svc_params: { model: 'openai/gpt-4o', api_base: `${upstream.url}/v1`, api_key: 'sk-test' },
      },
    ]);
    const stream = await router.acompletion({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
      stream: true,
    });
    const chunks = stream[Symbol.asyncIterator]();
    expect((await chunks.next()).done).toBe(false);
    // the caller holds its first chunk and asks for nothing more
    await until(() => upstream.seen.blocked);
    // the upstream comes to a stop (however slowly the buffers on the way fill on a busy machine)
    const held = await settled(() => upstream.seen.written);
    expect(held).toBeLessThan(BOUND_BYTES);
    // reading again lets the upstream go on; stopping closes it
    for (let i = 0; i < 5_000; i++) await chunks.next();
    await until(() => upstream.seen.written > held);
    await chunks.return?.();
    await until(() => upstream.seen.closed);
  });
});
