import type { Deployment } from '../types/index.js';

/**
 * Something derived from each deployment of a candidate list, kept per list: the router passes a
 * group's own list (the same array every time) when nothing is filtered out, so the values are looked
 * up once and then read by index. A filtered list (a new array) derives them afresh. `clear` forgets
 * every list (when the values they hold are replaced).
 */
export class PerList<T> {
  #lists = new WeakMap<readonly Deployment[], T[]>();

  constructor(private readonly derive: (deployment: Deployment) => T) {}

  of(candidates: readonly Deployment[]): T[] {
    let values = this.#lists.get(candidates);
    if (!values) {
      values = candidates.map(this.derive);
      this.#lists.set(candidates, values);
    }
    return values;
  }

  clear(): void {
    this.#lists = new WeakMap();
  }
}
