/** The end of an iteration: one frozen result for every iterator. */
export const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

/**
 * A value an iterator hands out, made by `new` rather than as a literal: a literal's allocation site
 * can be pretenured by V8 once its objects outlive young-generation collections (see
 * src/providers/shared/chunk-objects.ts), and a stream makes one per chunk.
 */
export class Yielded<T> implements IteratorYieldResult<T> {
  readonly done = false as const;
  constructor(readonly value: T) {}
}
