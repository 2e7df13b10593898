/**
 * How many rows a write statement itself wrote, read from its `RETURNING` rows. D1's
 * `meta.changes` cannot say it: it also counts the rows that `ON DELETE CASCADE` (and any
 * trigger) changed, so a delete with dependants reports more than 1. Inside SQL, `changes()`
 * is safe: SQLite counts only the previous statement's own rows there.
 */
export function rowsWritten(result: D1Result | undefined): number {
  return result?.results.length ?? 0;
}
