/**
 * Whether the database refused the data itself: SQLSTATE class 22 (data exception), 23 (integrity
 * violation) or 54 (program limit exceeded: a statement too large). Sending the same rows again fails
 * again, unlike a lost connection or a timeout.
 */
export function isRefusedData(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^(2[23]|54)/.test(code);
}

/**
 * Writes a batch; when the database refuses its data, writes each half of it the same way, down to
 * single rows, and adds the rows it refuses alone to `refused`: one bad row never holds back the others,
 * and costs about two writes per halving (20 for a batch of 1000) rather than a write per row. Writes
 * must be idempotent: rows of a part already stored are written again. Any other error is thrown;
 * `refused` then holds the rows refused so far.
 */
export async function writeSettingAsideRefused<T>(
  batch: readonly T[],
  write: (rows: readonly T[]) => Promise<unknown>,
  refused: Set<T>,
): Promise<void> {
  try {
    await write(batch);
    return;
  } catch (error) {
    if (!isRefusedData(error)) throw error;
  }
  if (batch.length === 1) {
    refused.add(batch[0]!);
    return;
  }
  const half = Math.ceil(batch.length / 2);
  await writeSettingAsideRefused(batch.slice(0, half), write, refused);
  await writeSettingAsideRefused(batch.slice(half), write, refused);
}
