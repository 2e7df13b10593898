import { and, asc, desc, eq, isNotNull, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import type { DB } from "../../db/client";
import { deleteOwnRow, firstRow, pageWithTotal } from "../../db/rows";
import { folders, jobs, pages, projects, tables } from "../../db/schema";
import type { PROJECT_ORDERS } from "./projects.schemas";
import { PROJECT_EDITABLE } from "../../db/project-guard";
import { rowsWritten } from "../../db/written";

export type ProjectRow = typeof projects.$inferSelect;
export type PageRow = typeof pages.$inferSelect;
export type FolderRow = typeof folders.$inferSelect;

export async function findProject(db: DB, userId: string, projectId: string): Promise<ProjectRow | undefined> {
  return firstRow(db, projects, and(eq(projects.id, projectId), eq(projects.userId, userId)));
}

export interface ProjectFilter {
  tool?: ProjectRow["tool"];
  status?: ProjectRow["status"];
  search?: string;
  folderId?: string;
  trash: boolean;
  order: (typeof PROJECT_ORDERS)[number];
  limit: number;
  offset: number;
}

const ORDER_BY: Record<ProjectFilter["order"], SQL[]> = {
  // The id breaks ties, so paging is stable when timestamps or names are equal.
  updated_desc: [desc(projects.updatedAt), desc(projects.id)],
  updated_asc: [asc(projects.updatedAt), asc(projects.id)],
  created_desc: [desc(projects.createdAt), desc(projects.id)],
  created_asc: [asc(projects.createdAt), asc(projects.id)],
  name_asc: [sql`${projects.name} COLLATE NOCASE ASC`, asc(projects.id)],
  name_desc: [sql`${projects.name} COLLATE NOCASE DESC`, desc(projects.id)],
};

export async function listProjects(db: DB, userId: string, f: ProjectFilter) {
  const where: SQL[] = [eq(projects.userId, userId), f.trash ? isNotNull(projects.trashedAt) : isNull(projects.trashedAt)];
  if (f.tool) where.push(eq(projects.tool, f.tool));
  if (f.status) where.push(eq(projects.status, f.status));
  if (f.folderId) where.push(eq(projects.folderId, f.folderId));
  if (f.search) {
    // Substring match with instr(), not LIKE: D1 caps LIKE patterns at 50 bytes, and nothing needs escaping.
    // lower() folds ASCII case on both sides, as LIKE does.
    const q = sql`lower(${f.search})`;
    where.push(
      or(
        sql`instr(lower(${projects.name}), ${q}) > 0`,
        sql`EXISTS (SELECT 1 FROM regions r WHERE r.project_id = "projects"."id" AND (
          instr(lower(r.text), ${q}) > 0 OR instr(lower(r.user_text), ${q}) > 0 OR instr(lower(r.translation), ${q}) > 0 OR instr(lower(r.user_translation), ${q}) > 0))`,
      )!,
    );
  }
  return pageWithTotal(db, projects, and(...where), ORDER_BY[f.order], f);
}

export async function projectPages(db: DB, projectId: string): Promise<PageRow[]> {
  return db.select().from(pages).where(eq(pages.projectId, projectId)).orderBy(pages.pageIndex);
}

export async function updateProject(
  db: DB,
  projectId: string,
  patch: Partial<Pick<ProjectRow, "name" | "folderId" | "trashedAt">>,
  now = Date.now(),
) {
  const [row] = await db
    .update(projects)
    .set({ ...patch, updatedAt: now })
    .where(eq(projects.id, projectId))
    .returning();
  return row;
}

/**
 * Marks an editable project `processing` for a re-render. The edit guard makes it the only one: a
 * second re-render, or a project trashed or processing meanwhile, changes nothing (false).
 */
export async function claimForRerender(db: DB, projectId: string): Promise<boolean> {
  const res = await db.$client
    .prepare(`UPDATE projects SET status = 'processing', updated_at = ? WHERE id = ? AND ${PROJECT_EDITABLE} RETURNING id`)
    .bind(Date.now(), projectId)
    .run();
  return rowsWritten(res) === 1;
}

/** The jobs whose files belong to the project (the one that created it and any later one on it). */
export async function projectJobIds(db: DB, project: ProjectRow): Promise<string[]> {
  const rows = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(project.sourceJobId ? or(eq(jobs.projectId, project.id), eq(jobs.id, project.sourceJobId)) : eq(jobs.projectId, project.id));
  return rows.map((r) => r.id);
}

/** Removes the project row; pages, regions, tables, cells, exports and shares cascade, jobs keep their history. */
export async function deleteProject(db: DB, projectId: string): Promise<void> {
  await db.delete(projects).where(eq(projects.id, projectId));
}

export async function trashedBefore(db: DB, cutoff: number, limit: number): Promise<ProjectRow[]> {
  return db
    .select()
    .from(projects)
    .where(and(isNotNull(projects.trashedAt), lte(projects.trashedAt, cutoff)))
    .orderBy(projects.trashedAt)
    .limit(limit);
}

/**
 * Writes a deep copy of a project's rows in one transaction: the project, its pages (new ids and
 * R2 keys, given), their regions, tables with their cells, and its export rows (as statements of the exports repo). Region ids
 * are generated in SQL (`rgn_` + 20 hex characters) so a large project copies in one statement.
 */
export async function insertProjectCopy(
  db: DB,
  source: ProjectRow,
  copy: typeof projects.$inferInsert & { id: string },
  pageRows: (typeof pages.$inferInsert)[],
  tableIds: { from: string; to: string }[],
  exportStatements: D1PreparedStatement[],
): Promise<void> {
  const d1 = db.$client;
  const stmts: D1PreparedStatement[] = [];
  const q = db.insert(projects).values(copy).toSQL();
  stmts.push(d1.prepare(q.sql).bind(...q.params));
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
      .bind(copy.id, source.id),
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
        .bind(t.to, copy.id, t.from),
      d1
        .prepare(
          `INSERT INTO table_cells (table_id, row, col, row_span, col_span, text, confidence, edited_at)
           SELECT ?1, row, col, row_span, col_span, text, confidence, edited_at FROM table_cells WHERE table_id = ?2`,
        )
        .bind(t.to, t.from),
    );
  }
  await d1.batch([...stmts, ...exportStatements]);
}

export async function projectTableIds(db: DB, projectId: string): Promise<string[]> {
  const rows = await db.select({ id: tables.id }).from(tables).where(eq(tables.projectId, projectId));
  return rows.map((r) => r.id);
}

// Folders

export async function findFolder(db: DB, userId: string, folderId: string): Promise<FolderRow | undefined> {
  return firstRow(db, folders, and(eq(folders.id, folderId), eq(folders.userId, userId)));
}

export async function listFolders(db: DB, userId: string) {
  return db
    .select({
      folder: folders,
      // Qualified by hand: drizzle leaves single-table select columns unqualified, which a subquery would rebind.
      projects: sql<number>`(SELECT COUNT(*) FROM projects p WHERE p.folder_id = "folders"."id" AND p.trashed_at IS NULL)`,
    })
    .from(folders)
    .where(eq(folders.userId, userId))
    .orderBy(sql`${folders.name} COLLATE NOCASE`, folders.id);
}

export async function insertFolder(db: DB, row: typeof folders.$inferInsert): Promise<FolderRow> {
  const [inserted] = await db.insert(folders).values(row).returning();
  return inserted!;
}

/** Deletes a folder; its projects stay, out of any folder (foreign key `set null`). */
export async function deleteFolder(db: DB, userId: string, folderId: string): Promise<boolean> {
  return deleteOwnRow(db, folders, userId, folderId);
}
