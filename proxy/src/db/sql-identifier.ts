/**
 * `name` quoted as an SQL identifier (`"svc_test_1"`; a `"` inside is doubled). No imports: the
 * embedded database's worker thread uses it, and loads nothing it does not need.
 *
 * @example quoteIdentifier('svc') // => '"svc"'
 */
export function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
