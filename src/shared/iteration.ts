/** The end of an iteration: one frozen result for every iterator. */
export const DONE: IteratorReturnResult<undefined> = Object.freeze({ done: true, value: undefined });

// Made by `new` rather than as a literal: V8 can pretenure a literal's allocation site once its
// objects outlive young-generation collections (src/providers/shared/chunk-objects.ts says why that
// costs), and a stream makes one result per chunk. Its prototype is Object.prototype, as a literal's.
function YieldResult<T>(this: IteratorYieldResult<T>, value: T): void {
  this.done = false;
  this.value = value;
}
YieldResult.prototype = Object.prototype;
const Yielded = YieldResult as unknown as new <T>(value: T) => IteratorYieldResult<T>;

/** `{ done: false, value }`, a plain object made without an allocation site. */
export function yielded<T>(value: T): IteratorYieldResult<T> {
  return new Yielded(value);
}
