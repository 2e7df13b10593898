import { and, eq, inArray } from "drizzle-orm";
import { queryInChunks } from "../../db/chunks";
import type { DB } from "../../db/client";
import { firstRow, newestRows } from "../../db/rows";
import { exportFiles } from "../../db/schema";
import { type AccountRows, ownRows } from "../../db/account-rows";

/** The account's export files, for its data export. */
export const ACCOUNT_ROWS: AccountRows = { exports: ownRows("exports") };

// The only code that queries export_files (a project's exports and a job's).

export type ExportRow = typeof exportFiles.$inferSelect;
export type NewExport = typeof exportFiles.$inferInsert;

export async function findExport(db: DB, userId: string, exportId: string) {
  return firstRow(db, exportFiles, and(eq(exportFiles.id, exportId), eq(exportFiles.userId, userId)));
}

export async function jobExports(db: DB, jobIds: string[]) {
  const rows = await queryInChunks(jobIds, (run) => db.select().from(exportFiles).where(inArray(exportFiles.jobId, run)));
  return rows.sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
}

export async function projectExports(db: DB, projectId: string): Promise<ExportRow[]> {
  return newestRows(db, exportFiles, eq(exportFiles.projectId, projectId));
}

export async function insertExport(db: DB, row: typeof exportFiles.$inferInsert): Promise<ExportRow> {
  const [inserted] = await db.insert(exportFiles).values(row).returning();
  return inserted!;
}

/** Records export files; a rebuilt export (a retried batch) replaces the earlier row. */
export async function upsertExports(db: DB, rows: (typeof exportFiles.$inferInsert)[]) {
  const [first, ...rest] = rows.map((r) =>
    db
      .insert(exportFiles)
      .values(r)
      .onConflictDoUpdate({
        target: exportFiles.id,
        set: { key: r.key, bytes: r.bytes, filename: r.filename, contentType: r.contentType, status: r.status, completedAt: r.completedAt },
      }),
  );
  if (first) await db.batch([first, ...rest]);
}

/** Export rows as D1 statements, for a caller's batch (a project copy). */
export function exportStatements(db: DB, rows: NewExport[]): D1PreparedStatement[] {
  return rows.map((e) => {
    const s = db.insert(exportFiles).values(e).toSQL();
    return db.$client.prepare(s.sql).bind(...s.params);
  });
}
