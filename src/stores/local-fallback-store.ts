import { MemoryStore } from './memory-store.js';
import { isPromise, type MaybePromise, type Store } from './store.js';

/**
 * A store that answers from `local` whenever `shared` fails (throws or rejects), so what counts on
 * shared state (rate limits) keeps counting in this process while Redis is away, and goes back to the
 * shared count when it answers again. Nothing is copied between the two: an outage's counts stay local.
 * Report `shared`'s failures by watching it (`watchedStore`) before passing it here.
 */
export function withLocalFallback(shared: Store, local: Store = new MemoryStore()): Store {
  const tryShared = <T>(run: (store: Store) => MaybePromise<T>): MaybePromise<T> => {
    let answer: MaybePromise<T>;
    try {
      answer = run(shared);
    } catch {
      return run(local);
    }
    return isPromise(answer) ? answer.catch(() => run(local)) : answer;
  };
  return {
    get: (key) => tryShared((store) => store.get(key)),
    set: (key, value, options) => tryShared((store) => store.set(key, value, options)),
    increment: (key, by, options) => tryShared((store) => store.increment(key, by, options)),
    getMany: (keys) => tryShared((store) => store.getMany(keys)),
    delete: (key) => tryShared((store) => store.delete(key)),
    close: () => shared.close?.(),
  };
}
