/**
 * What a repo declares of an account's rows in the tables it owns, for the account's data export:
 * one read query per section (`?1` = the user id). The account domain runs every repo's queries in
 * one D1 batch, so the export is one consistent snapshot while each table is read by its own repo.
 */
export type AccountRows = Record<string, string>;

/** The common case: every row of `table` with the account's `user_id`, oldest first. */
export function ownRows(table: string, order = "created_at, id"): string {
  return `SELECT * FROM ${table} WHERE user_id = ?1 ORDER BY ${order}`;
}
