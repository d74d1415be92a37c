import type { KeyIdentity } from './caller.js';
import { LookupCache } from './lookup-cache.js';

/** Reads one key by its hash from the database; undefined when there is none. */
export type KeyLookup = (keyHash: string) => Promise<KeyIdentity | undefined>;

/** Virtual keys by hash (`key_cache_ttl`): once warm, auth costs no database round trip. */
export class KeyCache extends LookupCache<KeyIdentity> {}
