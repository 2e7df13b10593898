import { desc, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { DB } from "./client";

/** The one row of `table` that `where` picks (an id, a unique reference), or undefined: the repos' lookups. */
export async function firstRow<T extends SQLiteTable>(db: DB, table: T, where: SQL | undefined): Promise<T["$inferSelect"] | undefined> {
  const [row] = await db
    .select()
    .from(table as SQLiteTable)
    .where(where)
    .limit(1);
  return row as T["$inferSelect"] | undefined;
}

/** The order of every list the API pages through: newest first, ties broken by id. */
export function newestFirst(table: { createdAt: SQLiteColumn; id: SQLiteColumn }) {
  return [desc(table.createdAt), desc(table.id)] as const;
}
