import { OptionalPeer } from './optional-peer.js';

/** ioredis: the client of RedisStore (CommonJS, required synchronously by the store's constructor). */
export const ioredis = new OptionalPeer<typeof import('ioredis')>('ioredis', 'as its Redis client');
