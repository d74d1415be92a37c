/**
 * Whether the database refused the data itself (SQLSTATE class 22, data exception, or 23, integrity
 * violation): sending the same rows again fails again, unlike a lost connection or a timeout.
 */
export function isRefusedData(error: unknown): boolean {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && /^2[23]/.test(code);
}

/**
 * Writes a batch; when the database refuses its data, writes the rows one at a time and adds those it
 * refuses to `refused`, so one bad row never holds back the others (writes must be idempotent: rows
 * of the batch already stored are written again). Any other error is thrown; `refused` then holds the
 * rows refused so far.
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
  for (const row of batch) {
    try {
      await write([row]);
    } catch (error) {
      if (!isRefusedData(error)) throw error;
      refused.add(row);
    }
  }
}
