import { and, asc, desc, eq, inArray, isNotNull, isNull, lte, or, type SQL, sql } from "drizzle-orm";
import type { DB } from "../../db/client";
import { deleteOwnRow, firstRow, pageWithTotal } from "../../db/rows";
import { folders, projects } from "../../db/schema";
import type { PROJECT_ORDERS } from "./projects.schemas";
import { PROJECT_EDITABLE, projectEditable } from "../../db/project-guard";
import { rowsWritten } from "../../db/written";
import type { JobProject } from "../jobs/project-port";
import { type AccountRows, ownRows } from "../../db/account-rows";

/** The account's folders and projects, for its data export. */
export const ACCOUNT_ROWS: AccountRows = { folders: ownRows("folders"), projects: ownRows("projects") };

export type ProjectRow = typeof projects.$inferSelect;
export type ProjectStatus = ProjectRow["status"];
export type FolderRow = typeof folders.$inferSelect;

export async function findProject(db: DB, userId: string, projectId: string): Promise<ProjectRow | undefined> {
  return firstRow(db, projects, and(eq(projects.id, projectId), eq(projects.userId, userId)));
}

export async function projectById(db: DB, projectId: string): Promise<ProjectRow | undefined> {
  return firstRow(db, projects, eq(projects.id, projectId));
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

/** `contentMatches(q)`: the condition that a project's content holds the lowercase search text `q` (from the pages repo). */
export async function listProjects(db: DB, userId: string, f: ProjectFilter, contentMatches: (q: SQL) => SQL) {
  const where: SQL[] = [eq(projects.userId, userId), f.trash ? isNotNull(projects.trashedAt) : isNull(projects.trashedAt)];
  if (f.tool) where.push(eq(projects.tool, f.tool));
  if (f.status) where.push(eq(projects.status, f.status));
  if (f.folderId) where.push(eq(projects.folderId, f.folderId));
  if (f.search) {
    // Substring match with instr(), not LIKE: D1 caps LIKE patterns at 50 bytes, and nothing needs escaping.
    // lower() folds ASCII case on both sides, as LIKE does.
    const q = sql`lower(${f.search})`;
    where.push(or(sql`instr(lower(${projects.name}), ${q}) > 0`, contentMatches(q))!);
  }
  return pageWithTotal(db, projects, and(...where), ORDER_BY[f.order], f);
}

/** Inserts the project a new job creates (the job's intake batch). */
export function insertJobProjectStatement(db: DB, project: JobProject, now: number) {
  return db.insert(projects).values({ ...project, status: "processing", createdAt: now, updatedAt: now });
}

/** Deletes the projects created by jobs that were refused before they started. */
export function deleteOfJobsStatement(db: DB, jobIds: string[]) {
  return db.delete(projects).where(inArray(projects.sourceJobId, jobIds));
}

/** Bumps the project's `updated_at`, for the batch of an edit of its content. */
export function touchProjectStatement(db: DB, projectId: string, now: number) {
  return db.update(projects).set({ updatedAt: now }).where(eq(projects.id, projectId));
}

/** A project state change applied only if `guard` (SQL) holds, for a job transition's batch. */
export function projectStatusStatement(db: DB, projectId: string, status: ProjectStatus, guard: { sql: string; args: unknown[] }) {
  return db.$client
    .prepare(`UPDATE projects SET status = ?, updated_at = ? WHERE id = ? AND ${guard.sql}`)
    .bind(status, Date.now(), projectId, ...guard.args);
}

export async function setProjectStatus(db: DB, projectId: string, status: ProjectStatus): Promise<void> {
  await db.update(projects).set({ status, updatedAt: Date.now() }).where(eq(projects.id, projectId));
}

/** Whether the project passes the edit guard now (live, not processing). */
export async function projectEditableNow(db: DB, projectId: string): Promise<boolean> {
  const guard = projectEditable(projectId);
  return (
    (await db.$client
      .prepare(`SELECT ${guard.sql} AS ok`)
      .bind(...guard.args)
      .first<number>("ok")) === 1
  );
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
 * Writes a deep copy of a project's rows in one transaction: the project, then its content and its
 * export rows (as statements of the pages and exports repos).
 */
export async function insertProjectCopy(
  db: DB,
  copy: typeof projects.$inferInsert & { id: string },
  contentStatements: D1PreparedStatement[],
  exportStatements: D1PreparedStatement[],
): Promise<void> {
  const d1 = db.$client;
  const q = db.insert(projects).values(copy).toSQL();
  await d1.batch([d1.prepare(q.sql).bind(...q.params), ...contentStatements, ...exportStatements]);
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
