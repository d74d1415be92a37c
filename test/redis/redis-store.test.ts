import { afterAll, describe, expect, it } from 'vitest';
import { RedisStore } from '../../src/stores/redis-store.js';
import { storeContract } from '../../src/testing/index.js';
import { flushNamespace, REDIS_URL, uniqueNamespace } from './helpers.js';

const namespace = uniqueNamespace('store');
afterAll(() => flushNamespace(namespace));

storeContract({
  name: 'RedisStore',
  create: () => new RedisStore({ url: REDIS_URL, namespace }),
  realClock: true,
});
