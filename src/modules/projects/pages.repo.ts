import { and, asc, eq, inArray, type SQL, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import { chunks, queryInChunks } from "../../db/chunks";
import type { DB } from "../../db/client";
import type { PagePath } from "../../db/schema/enums";
import { firstRow } from "../../db/rows";
import { pages, regions, tableCells, tables } from "../../db/schema";
import type { AccountRows } from "../../db/account-rows";
import { touchProjectStatement } from "./projects.repo";

/**
 * A project's content: its pages, their regions, tables and table cells. This is the only code
 * that reads or writes those tables (the projects repo owns projects and folders).
 */

/** The content of the account's projects, for its data export. */
export const ACCOUNT_ROWS: AccountRows = {
  pages: "SELECT pg.* FROM pages pg JOIN projects p ON p.id = pg.project_id WHERE p.user_id = ?1 ORDER BY pg.project_id, pg.page_index",
  regions:
    "SELECT r.* FROM regions r JOIN projects p ON p.id = r.project_id WHERE p.user_id = ?1 ORDER BY r.page_id, r.reading_order, r.id",
  tables: "SELECT t.* FROM tables t JOIN projects p ON p.id = t.project_id WHERE p.user_id = ?1 ORDER BY t.page_id, t.id",
  table_cells:
    "SELECT c.* FROM table_cells c JOIN tables t ON t.id = c.table_id JOIN projects p ON p.id = t.project_id WHERE p.user_id = ?1 ORDER BY c.table_id, c.row, c.col",
};

export type PageRow = typeof pages.$inferSelect;
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

export async function findProjectPage(db: DB, projectId: string, by: { pageId?: string; pageIndex?: number }) {
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
  stmts.push(touchProjectStatement(db, projectId, now));
  return stmts;
}

/** Applies region changes for the job processing the project (it holds the project; edits are refused meanwhile). */
export async function applyRegionChanges(db: DB, projectId: string, ch: RegionChanges): Promise<void> {
  const [first, ...rest] = regionChangeStatements(db, projectId, ch);
  await db.batch([first!, ...rest]);
}

// Pages

export async function projectPages(db: DB, projectId: string): Promise<PageRow[]> {
  return db.select().from(pages).where(eq(pages.projectId, projectId)).orderBy(pages.pageIndex);
}

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

/** How many of the project's pages hold content (its status after a re-render follows from it). */
export async function readyPageCount(db: DB, projectId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)` })
    .from(pages)
    .where(and(eq(pages.projectId, projectId), eq(pages.status, "ready")));
  return row?.n ?? 0;
}

/** Whether a listed project's regions hold `q` (lowercase) in any of their texts: the project list's content search. */
export function regionTextMatches(q: SQL): SQL {
  return sql`EXISTS (SELECT 1 FROM regions r WHERE r.project_id = "projects"."id" AND (
          instr(lower(r.text), ${q}) > 0 OR instr(lower(r.user_text), ${q}) > 0 OR instr(lower(r.translation), ${q}) > 0 OR instr(lower(r.user_translation), ${q}) > 0))`;
}

/**
 * The statements that copy a project's content into its copy (for the copy's one transaction):
 * its pages (new ids and R2 keys, given), their regions, tables with their cells. Region ids are
 * generated in SQL (`rgn_` + 20 hex characters) so a large project copies in one statement.
 */
export function contentCopyStatements(
  db: DB,
  sourceId: string,
  copyId: string,
  pageRows: (typeof pages.$inferInsert)[],
  tableIds: { from: string; to: string }[],
): D1PreparedStatement[] {
  const d1 = db.$client;
  const stmts: D1PreparedStatement[] = [];
  for (const p of pageRows) {
    const s = db.insert(pages).values(p).toSQL();
    stmts.push(d1.prepare(s.sql).bind(...s.params));
  }
  stmts.push(
    d1
      .prepare(
        `INSERT INTO regions (id, project_id, page_id, reading_order, kind, x, y, w, h, text, user_text, source_language, translation,
           user_translation, confidence, lines, style, vertical, overflow, leftover_text, smear, created_at, updated_at)
         SELECT 'rgn_' || lower(hex(randomblob(10))), ?1, np.id, r.reading_order, r.kind, r.x, r.y, r.w, r.h, r.text, r.user_text,
           r.source_language, r.translation, r.user_translation, r.confidence, r.lines, r.style, r.vertical, r.overflow,
           r.leftover_text, r.smear, r.created_at, r.updated_at
         FROM regions r JOIN pages op ON op.id = r.page_id JOIN pages np ON np.project_id = ?1 AND np.page_index = op.page_index
         WHERE r.project_id = ?2`,
      )
      .bind(copyId, sourceId),
  );
  for (const t of tableIds) {
    stmts.push(
      d1
        .prepare(
          `INSERT INTO tables (id, project_id, page_id, x, y, w, h, rows, cols, confidence, created_at, updated_at)
           SELECT ?1, ?2, np.id, t.x, t.y, t.w, t.h, t.rows, t.cols, t.confidence, t.created_at, t.updated_at
           FROM tables t JOIN pages op ON op.id = t.page_id JOIN pages np ON np.project_id = ?2 AND np.page_index = op.page_index
           WHERE t.id = ?3`,
        )
        .bind(t.to, copyId, t.from),
      d1
        .prepare(
          `INSERT INTO table_cells (table_id, row, col, row_span, col_span, text, confidence, edited_at)
           SELECT ?1, row, col, row_span, col_span, text, confidence, edited_at FROM table_cells WHERE table_id = ?2`,
        )
        .bind(t.to, t.from),
    );
  }
  return stmts;
}

// Tables

export async function projectTableIds(db: DB, projectId: string): Promise<string[]> {
  const rows = await db.select({ id: tables.id }).from(tables).where(eq(tables.projectId, projectId));
  return rows.map((r) => r.id);
}

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
  stmts.push(touchProjectStatement(db, projectId, now));
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
  path: PagePath;
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
