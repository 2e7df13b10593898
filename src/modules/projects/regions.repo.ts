import { and, asc, eq, inArray } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { chunks, queryInChunks } from "../../db/chunks";
import type { DB } from "../../db/client";
import { firstRow } from "../../db/rows";
import { pages, projects, regions, tableCells, tables } from "../../db/schema";

export type RegionRow = typeof regions.$inferSelect;
export type NewRegion = typeof regions.$inferInsert;
export type TableRow = typeof tables.$inferSelect;
export type CellRow = typeof tableCells.$inferSelect;
/** A region with the index of its page (RegionOut carries both). */
export type PlacedRegion = RegionRow & { pageIndex: number };

const placed = { region: regions, pageIndex: pages.pageIndex };
const unwrap = (r: { region: RegionRow; pageIndex: number }): PlacedRegion => ({ ...r.region, pageIndex: r.pageIndex });

export async function regionsOfProject(db: DB, projectId: string): Promise<PlacedRegion[]> {
  const rows = await db
    .select(placed)
    .from(regions)
    .innerJoin(pages, eq(pages.id, regions.pageId))
    .where(eq(regions.projectId, projectId))
    .orderBy(asc(pages.pageIndex), asc(regions.readingOrder), asc(regions.id));
  return rows.map(unwrap);
}

export async function findRegion(db: DB, projectId: string, regionId: string): Promise<PlacedRegion | undefined> {
  const [row] = await db
    .select(placed)
    .from(regions)
    .innerJoin(pages, eq(pages.id, regions.pageId))
    .where(and(eq(regions.id, regionId), eq(regions.projectId, projectId)))
    .limit(1);
  return row && unwrap(row);
}

export async function findRegions(db: DB, projectId: string, ids: string[]): Promise<PlacedRegion[]> {
  const rows = await queryInChunks(ids, (run) =>
    db
      .select(placed)
      .from(regions)
      .innerJoin(pages, eq(pages.id, regions.pageId))
      .where(and(eq(regions.projectId, projectId), inArray(regions.id, run))),
  );
  return rows.map(unwrap);
}

/** A page's regions in reading order (ties by id, so renumbering is deterministic). */
export async function pageRegions(db: DB, pageId: string): Promise<RegionRow[]> {
  return db.select().from(regions).where(eq(regions.pageId, pageId)).orderBy(asc(regions.readingOrder), asc(regions.id));
}

export async function findPage(db: DB, projectId: string, by: { pageId?: string; pageIndex?: number }) {
  const cond = by.pageId !== undefined ? eq(pages.id, by.pageId) : eq(pages.pageIndex, by.pageIndex!);
  return firstRow(db, pages, and(eq(pages.projectId, projectId), cond));
}

export interface RegionChanges {
  inserts?: Omit<NewRegion, "projectId">[];
  updates?: { id: string; patch: Partial<NewRegion> }[];
  deletes?: string[];
}

/**
 * The statements of a region edit, bumping the project's `updated_at`; run as one batch, an edit is
 * whole or not at all (reading orders of a page are rewritten together with the edit). A user's
 * edit runs them through the projects' edit guard (`writeProjectContent`).
 */
export function regionChangeStatements(db: DB, projectId: string, ch: RegionChanges, now = Date.now()): BatchItem<"sqlite">[] {
  const stmts: BatchItem<"sqlite">[] = [];
  for (const run of chunks(ch.deletes ?? []))
    stmts.push(db.delete(regions).where(and(eq(regions.projectId, projectId), inArray(regions.id, run))));
  for (const u of ch.updates ?? [])
    stmts.push(
      db
        .update(regions)
        .set({ ...u.patch, updatedAt: now })
        .where(and(eq(regions.id, u.id), eq(regions.projectId, projectId))),
    );
  for (const r of ch.inserts ?? []) stmts.push(db.insert(regions).values({ createdAt: now, updatedAt: now, ...r, projectId }));
  stmts.push(db.update(projects).set({ updatedAt: now }).where(eq(projects.id, projectId)));
  return stmts;
}

/** Applies region changes for the job processing the project (it holds the project; edits are refused meanwhile). */
export async function applyRegionChanges(db: DB, projectId: string, ch: RegionChanges): Promise<void> {
  const [first, ...rest] = regionChangeStatements(db, projectId, ch);
  await db.batch([first!, ...rest]);
}

// Tables

export async function tablesOfProject(db: DB, projectId: string) {
  return db
    .select({ table: tables, pageIndex: pages.pageIndex })
    .from(tables)
    .innerJoin(pages, eq(pages.id, tables.pageId))
    .where(eq(tables.projectId, projectId))
    .orderBy(asc(pages.pageIndex), asc(tables.y), asc(tables.x), asc(tables.id));
}

export async function cellsOfTables(db: DB, tableIds: string[]): Promise<CellRow[]> {
  return queryInChunks(tableIds, (run) =>
    db
      .select()
      .from(tableCells)
      .where(inArray(tableCells.tableId, run))
      .orderBy(asc(tableCells.tableId), asc(tableCells.row), asc(tableCells.col)),
  );
}

export async function findTable(db: DB, projectId: string, tableId: string): Promise<TableRow | undefined> {
  return firstRow(db, tables, and(eq(tables.id, tableId), eq(tables.projectId, projectId)));
}

/** The statements writing cell texts (inserting grid cells that had no row yet) and bumping the table and project. */
export function cellWriteStatements(
  db: DB,
  projectId: string,
  tableId: string,
  cells: { row: number; col: number; text: string }[],
  now = Date.now(),
): BatchItem<"sqlite">[] {
  const stmts: BatchItem<"sqlite">[] = cells.map((c) =>
    db
      .insert(tableCells)
      .values({ tableId, row: c.row, col: c.col, text: c.text, editedAt: now })
      .onConflictDoUpdate({ target: [tableCells.tableId, tableCells.row, tableCells.col], set: { text: c.text, editedAt: now } }),
  );
  stmts.push(db.update(tables).set({ updatedAt: now }).where(eq(tables.id, tableId)));
  stmts.push(db.update(projects).set({ updatedAt: now }).where(eq(projects.id, projectId)));
  return stmts;
}

/** A table recognised on a page, with its cells (a spanning cell once, at its top-left position). */
export type NewPageTable = Omit<typeof tables.$inferInsert, "projectId" | "pageId"> & {
  cells: Omit<typeof tableCells.$inferInsert, "tableId">[];
};

/** Cells per INSERT: D1 binds at most 100 parameters a statement and a cell takes 7. */
const CELLS_PER_INSERT = 14;

/** A page as recognition wrote it. */
export interface PageOutput {
  projectId: string;
  pageId: string;
  pageIndex: number;
  width: number;
  height: number;
  imageKey: string;
  sourceKey: string;
  language: string;
  path: "ocr" | "text_layer" | "rasterized";
  rotation?: number;
}

/**
 * The statements that write a page's recognition output, for one batch: the page row, its regions
 * (replacing earlier ones) and, when given, its tables with their cells (replacing earlier ones: a
 * retried step rewrites, never duplicates).
 */
export function pageOutputStatements(
  db: DB,
  p: PageOutput,
  rs: Omit<NewRegion, "projectId" | "pageId">[],
  ts?: NewPageTable[],
): [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]] {
  const now = Date.now();
  const tableStatements = (ts ?? []).flatMap(({ cells, ...t }) => {
    return [
      db.insert(tables).values({ ...t, projectId: p.projectId, pageId: p.pageId, createdAt: now, updatedAt: now }),
      ...chunks(cells, CELLS_PER_INSERT).map((chunk) => db.insert(tableCells).values(chunk.map((c) => ({ ...c, tableId: t.id })))),
    ];
  });
  return [
    db
      .insert(pages)
      .values({
        id: p.pageId,
        projectId: p.projectId,
        pageIndex: p.pageIndex,
        width: p.width,
        height: p.height,
        imageKey: p.imageKey,
        sourceKey: p.sourceKey,
        path: p.path,
        rotation: p.rotation ?? 0,
        status: "ready",
        detectedLanguage: p.language,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoUpdate({
        target: [pages.projectId, pages.pageIndex],
        set: {
          width: p.width,
          height: p.height,
          imageKey: p.imageKey,
          path: p.path,
          rotation: p.rotation ?? 0,
          status: "ready",
          updatedAt: now,
        },
      }),
    db.delete(regions).where(eq(regions.pageId, p.pageId)),
    ...rs.map((r) => db.insert(regions).values({ ...r, projectId: p.projectId, pageId: p.pageId })),
    ...(ts ? [db.delete(tables).where(eq(tables.pageId, p.pageId)), ...tableStatements] : []),
  ];
}
