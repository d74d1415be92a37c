import type { Deployment } from '../types/index.js';
import type { RandomSource } from './strategy.js';

/** A candidate's score (lower is better), or NaN when it must not be chosen. */
export type Score = (deployment: Deployment, index: number) => number;

/**
 * Chooses the candidate with the lowest score, uniformly at random among those that tie, never by list
 * order: a list-order tie-break sends every call to the first deployment (LiteLLM's least-busy bug).
 * With `slack`, every score up to `lowest * (1 + slack)` ties. Scores are computed once per candidate
 * into a buffer this picker keeps and reuses, so a selection allocates nothing. Not reentrant: `score`
 * must not call back into the same picker.
 */
export class LowestPicker {
  #scores = new Float64Array(64);
  #ties = new Int32Array(64);

  constructor(private readonly random: RandomSource) {}

  /** The chosen candidate, or undefined when none has a score. */
  pick(candidates: readonly Deployment[], score: Score, slack = 0): Deployment | undefined {
    const n = candidates.length;
    if (n > this.#scores.length) {
      const size = Math.max(n, this.#scores.length * 2);
      this.#scores = new Float64Array(size);
      this.#ties = new Int32Array(size);
    }
    const scores = this.#scores;
    let lowest = Number.POSITIVE_INFINITY;
    let eligible = 0;
    for (let i = 0; i < n; i++) {
      const s = score(candidates[i]!, i);
      scores[i] = s;
      if (!Number.isNaN(s)) {
        eligible++;
        if (s < lowest) lowest = s;
      }
    }
    if (eligible === 0) return undefined;
    const limit = lowest > 0 ? lowest * (1 + slack) : lowest;
    const ties = this.#ties;
    let count = 0;
    for (let i = 0; i < n; i++) if (scores[i]! <= limit) ties[count++] = i;
    return candidates[ties[Math.floor(this.random() * count)]!];
  }
}
