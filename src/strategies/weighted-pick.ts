import type { Deployment } from '../types/index.js';
import type { RandomSource } from './strategy.js';

type WeightKey = 'weight' | 'rpm' | 'tpm';

/**
 * Which value weights a group: `weight` if any candidate sets it, else `rpm`, else `tpm`, else none
 * (uniform).
 */
export function weightKeyOf(candidates: readonly Deployment[]): WeightKey | undefined {
  let key: WeightKey | undefined;
  for (const d of candidates) {
    if (d.params.weight !== undefined) return 'weight';
    if (d.params.rpm !== undefined) key = 'rpm';
    else if (d.params.tpm !== undefined && key === undefined) key = 'tpm';
  }
  return key;
}

/**
 * The selection weight of each candidate. With `weight`, an unset one counts 1; with `rpm`/`tpm`, an
 * unset one counts as the mean of those set (a deployment with no stated limit is taken as average).
 */
export function selectionWeights(candidates: readonly Deployment[]): number[] {
  const key = weightKeyOf(candidates);
  if (!key) return candidates.map(() => 1);
  const values = candidates.map((d) => d.params[key]);
  let fallback = 1;
  if (key !== 'weight') {
    const set = values.filter((v): v is number => v !== undefined);
    fallback = set.reduce((a, b) => a + b, 0) / set.length;
  }
  return values.map((v) => v ?? fallback);
}

/**
 * The running totals of the candidates' selection weights: `totals[i]` is the sum of the weights of
 * candidates 0..i. Pure.
 */
export function cumulativeWeights(candidates: readonly Deployment[]): Float64Array {
  const weights = selectionWeights(candidates);
  const totals = new Float64Array(weights.length);
  let total = 0;
  for (let i = 0; i < weights.length; i++) {
    total += weights[i]!;
    totals[i] = total;
  }
  return totals;
}

/**
 * Picks one candidate with probability proportional to its weight, given the running totals of the
 * weights (`cumulativeWeights`): a binary search, O(log n). Uniform when every weight is zero. Pure
 * given `random`.
 */
export function pickByTotals(
  candidates: readonly Deployment[],
  totals: Float64Array,
  random: RandomSource,
): Deployment | undefined {
  const n = candidates.length;
  if (n <= 1) return candidates[0];
  const total = totals[n - 1]!;
  if (!(total > 0)) return candidates[Math.floor(random() * n)];
  const point = random() * total;
  // the first candidate whose running total passes the point (zero weights are never chosen)
  let low = 0;
  let high = n - 1;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (totals[mid]! > point) high = mid;
    else low = mid + 1;
  }
  return candidates[low];
}

/**
 * Picks one candidate with probability proportional to its selection weight; uniform when every
 * weight is zero. Pure given `random`.
 */
export function weightedPick(
  candidates: readonly Deployment[],
  random: RandomSource,
): Deployment | undefined {
  if (candidates.length <= 1) return candidates[0];
  return pickByTotals(candidates, cumulativeWeights(candidates), random);
}
