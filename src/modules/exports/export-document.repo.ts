import { and, asc, eq, inArray } from "drizzle-orm";
import type { DB } from "../../db/client";
import { pages, regions, tableCells, tables } from "../../db/schema";

export type PageRow = typeof pages.$inferSelect;
export type RegionRow = typeof regions.$inferSelect;

/** A project's ready pages in order, with their regions in reading order and their tables and cells. */
export async function documentRows(db: DB, projectId: string, pageIndexes?: number[]) {
  const pageRows = (await db.select().from(pages).where(and(eq(pages.projectId, projectId), eq(pages.status, "ready"))).orderBy(asc(pages.pageIndex))).filter(
    (p) => !pageIndexes || pageIndexes.includes(p.pageIndex),
  );
  const ids = pageRows.map((p) => p.id);
  if (ids.length === 0) return { pages: pageRows, regions: [] as RegionRow[], tables: [] as (typeof tables.$inferSelect)[], cells: [] as (typeof tableCells.$inferSelect)[] };
  const [regionRows, tableRows] = await Promise.all([
    db.select().from(regions).where(inArray(regions.pageId, ids)).orderBy(asc(regions.readingOrder), asc(regions.id)),
    db.select().from(tables).where(inArray(tables.pageId, ids)).orderBy(asc(tables.y), asc(tables.x)),
  ]);
  const cells = tableRows.length ? await db.select().from(tableCells).where(inArray(tableCells.tableId, tableRows.map((t) => t.id))).orderBy(asc(tableCells.row), asc(tableCells.col)) : [];
  return { pages: pageRows, regions: regionRows, tables: tableRows, cells };
}

/** The 0-based indexes of a project's ready pages, in order. */
export async function readyPageIndexes(db: DB, projectId: string): Promise<number[]> {
  const rows = await db.select({ i: pages.pageIndex }).from(pages).where(and(eq(pages.projectId, projectId), eq(pages.status, "ready"))).orderBy(asc(pages.pageIndex));
  return rows.map((r) => r.i);
}

export async function findPage(db: DB, pageId: string): Promise<PageRow | undefined> {
  const [row] = await db.select().from(pages).where(eq(pages.id, pageId)).limit(1);
  return row;
}

/** Records a page's text-removal and rendering files. */
export async function setPageFiles(db: DB, pageId: string, files: { maskKey?: string; cleanKey?: string; renderKey?: string }): Promise<void> {
  await db.update(pages).set({ ...files, updatedAt: Date.now() }).where(eq(pages.id, pageId));
}
