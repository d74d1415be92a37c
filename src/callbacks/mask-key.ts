/** `****abcd` (the last 4 characters); `****` for keys of 8 characters or fewer (CONTRACT 5.5). */
export function maskKey(key: string | undefined | null): string | null {
  if (!key) return null;
  return key.length <= 8 ? '****' : `****${key.slice(-4)}`;
}
