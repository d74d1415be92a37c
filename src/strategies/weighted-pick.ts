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
 * Picks one candidate with probability proportional to its selection weight; uniform when every
 * weight is zero. Pure given `random`.
 */
export function weightedPick(
  candidates: readonly Deployment[],
  random: RandomSource,
): Deployment | undefined {
  const n = candidates.length;
  if (n <= 1) return candidates[0];
  const weights = selectionWeights(candidates);
  let total = 0;
  for (const w of weights) total += w;
  if (total <= 0) return candidates[Math.floor(random() * n)];
  let point = random() * total;
  for (let i = 0; i < n; i++) {
    point -= weights[i]!;
    if (point < 0) return candidates[i];
  }
  return candidates[n - 1];
}
