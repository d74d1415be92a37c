function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + cost);
    }
    prev = row;
  }
  return prev[b.length]!;
}

// LiteLLM configs port by renaming the brand prefix: `litellm_params` is `svc_params` here
const LITELLM_PREFIX = /^litellm_/i;

/**
 * The candidate closest to `input`, when it is close enough to be a plausible typo: at most a third
 * of its length away (and at least 1 edit, at most 3). A LiteLLM name (`litellm_x`) matches its
 * `svc_x` candidate whatever the distance.
 */
export function closestMatch(input: string, candidates: Iterable<string>): string | undefined {
  const list = [...candidates];
  if (LITELLM_PREFIX.test(input)) {
    const renamed = input.replace(LITELLM_PREFIX, 'svc_').toLowerCase();
    const match = list.find((c) => c.toLowerCase() === renamed);
    if (match) return match;
  }
  const limit = Math.min(3, Math.max(1, Math.floor(input.length / 3)));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of list) {
    const distance = editDistance(input.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** "; did you mean `x`?" when a close candidate exists, else "". */
export function didYouMean(input: string, candidates: Iterable<string>): string {
  const match = closestMatch(input, candidates);
  return match ? `; did you mean \`${match}\`?` : '';
}
