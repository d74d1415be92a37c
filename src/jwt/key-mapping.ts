import { asString, type Claims, claimReader } from './claims.js';
import { TtlCache } from './ttl-cache.js';
import type { JwtAuthDeps, KeyMappingRecord } from './types.js';

/**
 * JWT-to-virtual-key mapping (spec 5.7): the value of the `virtual_key_claim_field` claim is looked up
 * as (`jwt_claim_name` = the field, `jwt_claim_value` = the value). Answers, found or not, are cached
 * for `ttlMs` (`virtual_key_mapping_cache_ttl`); `clear()` drops them at once (after an update). A
 * mapping with `is_active: false` does not apply.
 */
export class KeyMappings {
  private readonly read: (claims: Claims) => unknown;
  private readonly cache = new TtlCache<{ mapping: KeyMappingRecord | undefined }>();

  constructor(
    private readonly deps: Pick<JwtAuthDeps, 'findKeyMapping'>,
    private readonly claimField: string,
    private readonly ttlMs: number,
  ) {
    this.read = claimReader(claimField);
  }

  /** The active mapping for these claims, or undefined. */
  async find(claims: Claims): Promise<KeyMappingRecord | undefined> {
    const value = asString(this.read(claims));
    if (value === undefined) return undefined;
    let entry = this.cache.get(value);
    if (!entry) {
      entry = { mapping: (await this.deps.findKeyMapping(this.claimField, value)) ?? undefined };
      this.cache.set(value, entry, this.ttlMs);
    }
    return entry.mapping?.is_active ? entry.mapping : undefined;
  }

  clear(): void {
    this.cache.clear();
  }
}
