import { and, asc, eq } from "drizzle-orm";
import type { DB } from "../../db/client";
import { firstRow } from "../../db/rows";
import { pages, regions, tableCells, tables } from "../../db/schema";

export type PageRow = typeof pages.$inferSelect;
export type RegionRow = typeof regions.$inferSelect;

/**
 * A project's ready pages in order, with their regions in reading order and their tables and
 * cells. Rows are selected by project, never by a list of page ids: a document has any number of
 * pages, a statement at most 100 bound parameters.
 */
export async function documentRows(db: DB, projectId: string, pageIndexes?: number[]) {
  const pageRows = (
    await db
      .select()
      .from(pages)
      .where(and(eq(pages.projectId, projectId), eq(pages.status, "ready")))
      .orderBy(asc(pages.pageIndex))
  ).filter((p) => !pageIndexes || pageIndexes.includes(p.pageIndex));
  const ids = new Set(pageRows.map((p) => p.id));
  if (ids.size === 0)
    return {
      pages: pageRows,
      regions: [] as RegionRow[],
      tables: [] as (typeof tables.$inferSelect)[],
      cells: [] as (typeof tableCells.$inferSelect)[],
    };
  const [regionRows, tableRows, cellRows] = await Promise.all([
    db.select().from(regions).where(eq(regions.projectId, projectId)).orderBy(asc(regions.readingOrder), asc(regions.id)),
    db.select().from(tables).where(eq(tables.projectId, projectId)).orderBy(asc(tables.y), asc(tables.x)),
    db
      .select({ cell: tableCells })
      .from(tableCells)
      .innerJoin(tables, eq(tables.id, tableCells.tableId))
      .where(eq(tables.projectId, projectId))
      .orderBy(asc(tableCells.row), asc(tableCells.col)),
  ]);
  const tablesKept = tableRows.filter((t) => ids.has(t.pageId));
  const tableIds = new Set(tablesKept.map((t) => t.id));
  return {
    pages: pageRows,
    regions: regionRows.filter((r) => ids.has(r.pageId)),
    tables: tablesKept,
    cells: cellRows.map((c) => c.cell).filter((c) => tableIds.has(c.tableId)),
  };
}

/** The 0-based indexes of a project's ready pages, in order. */
export async function readyPageIndexes(db: DB, projectId: string): Promise<number[]> {
  const rows = await db
    .select({ i: pages.pageIndex })
    .from(pages)
    .where(and(eq(pages.projectId, projectId), eq(pages.status, "ready")))
    .orderBy(asc(pages.pageIndex));
  return rows.map((r) => r.i);
}

export async function findPage(db: DB, pageId: string): Promise<PageRow | undefined> {
  return firstRow(db, pages, eq(pages.id, pageId));
}

/** Records a page's text-removal and rendering files. */
export async function setPageFiles(
  db: DB,
  pageId: string,
  files: { maskKey?: string; cleanKey?: string; renderKey?: string },
): Promise<void> {
  await db
    .update(pages)
    .set({ ...files, updatedAt: Date.now() })
    .where(eq(pages.id, pageId));
}
