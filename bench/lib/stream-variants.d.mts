/** Types of bench/lib/stream-variants.mjs. */
export declare const WARMUP_BODIES: number;
export declare function variantsOf(
  tree: string,
  bytes: Buffer,
): Promise<Record<'parse' | 'reader' | 'stream', () => unknown>>;
export declare function runBodies(run: () => unknown, count: number): Promise<void>;
