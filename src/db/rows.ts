import { and, count, desc, eq, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { DB } from "./client";

/** A table whose rows belong to one account. */
type OwnedTable = SQLiteTable & { id: SQLiteColumn; userId: SQLiteColumn };

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

/** The rows `where` picks, newest first; a page of them when `page` is given. */
export async function newestRows<T extends SQLiteTable & { createdAt: SQLiteColumn; id: SQLiteColumn }>(
  db: DB,
  table: T,
  where: SQL | undefined,
  page?: { limit: number; offset: number },
): Promise<T["$inferSelect"][]> {
  const query = db
    .select()
    .from(table as SQLiteTable)
    .where(where)
    .orderBy(...newestFirst(table));
  return (page ? await query.limit(page.limit).offset(page.offset) : await query) as T["$inferSelect"][];
}

/** Deletes one of an account's rows by id; false when the account has none with that id (another's stays). */
export async function deleteOwnRow(db: DB, table: OwnedTable, userId: string, id: string): Promise<boolean> {
  const deleted = await db
    .delete(table)
    .where(and(eq(table.id, id), eq(table.userId, userId)))
    .returning({ id: table.id });
  return deleted.length > 0;
}

/** A page of the rows `where` picks, in `order`, with how many match in all (a list answer's items and total). */
export async function pageWithTotal<T extends SQLiteTable>(
  db: DB,
  table: T,
  where: SQL | undefined,
  order: readonly SQL[],
  page: { limit: number; offset: number },
): Promise<{ items: T["$inferSelect"][]; total: number }> {
  const [items, [total]] = await Promise.all([
    db
      .select()
      .from(table as SQLiteTable)
      .where(where)
      .orderBy(...order)
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ n: count() })
      .from(table as SQLiteTable)
      .where(where),
  ]);
  return { items: items as T["$inferSelect"][], total: total?.n ?? 0 };
}
