import { and, count, desc, eq, type SQL } from "drizzle-orm";
import type { DB } from "../../db/client";
import { exportFiles, jobEvents, jobs, pages, projects, regions } from "../../db/schema";
import type { JobStatus } from "./tools";

export type JobRow = typeof jobs.$inferSelect;
export type NewJob = typeof jobs.$inferInsert;

export async function findJob(db: DB, userId: string, jobId: string): Promise<JobRow | undefined> {
  const [row] = await db.select().from(jobs).where(and(eq(jobs.id, jobId), eq(jobs.userId, userId))).limit(1);
  return row;
}

export async function getJob(db: DB, jobId: string): Promise<JobRow | undefined> {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, jobId)).limit(1);
  return row;
}

export async function listJobs(db: DB, userId: string, f: { status?: JobStatus; tool?: JobRow["tool"]; parentJobId?: string; limit: number; offset: number }) {
  const where: SQL[] = [eq(jobs.userId, userId)];
  if (f.status) where.push(eq(jobs.status, f.status));
  if (f.tool) where.push(eq(jobs.tool, f.tool));
  if (f.parentJobId) where.push(eq(jobs.parentJobId, f.parentJobId));
  const cond = and(...where);
  const [items, [total]] = await Promise.all([
    db.select().from(jobs).where(cond).orderBy(desc(jobs.createdAt), desc(jobs.id)).limit(f.limit).offset(f.offset),
    db.select({ n: count() }).from(jobs).where(cond),
  ]);
  return { items, total: total?.n ?? 0 };
}

export async function jobExports(db: DB, jobId: string) {
  return db.select().from(exportFiles).where(eq(exportFiles.jobId, jobId)).orderBy(exportFiles.createdAt, exportFiles.id);
}

/** Inserts a new job with its project and its first timeline events, atomically. */
export async function insertJobWithProject(
  db: DB,
  job: NewJob & { projectId: string },
  project: { name: string; sourceLanguage: string | null; targetLanguage: string | null; pageCount: number },
  events: { type: string; status: JobStatus; message: string }[],
) {
  const now = Date.now();
  await db.batch([
    db.insert(jobs).values({ ...job, projectId: null }),
    db.insert(projects).values({
      id: job.projectId,
      userId: job.userId,
      name: project.name,
      tool: job.tool,
      status: "processing",
      sourceLanguage: project.sourceLanguage,
      targetLanguage: project.targetLanguage,
      pageCount: project.pageCount,
      sourceJobId: job.id,
      createdAt: now,
      updatedAt: now,
    }),
    db.update(jobs).set({ projectId: job.projectId }).where(eq(jobs.id, job.id)),
    ...events.map((e, i) => db.insert(jobEvents).values({ jobId: job.id, seq: i + 1, type: e.type, status: e.status, message: e.message, createdAt: now })),
  ]);
}

/** Removes a job that was refused before it started, with the project it created. */
export async function deleteJobAndProject(db: DB, jobId: string): Promise<void> {
  await db.batch([db.delete(projects).where(eq(projects.sourceJobId, jobId)), db.delete(jobs).where(eq(jobs.id, jobId))]);
}

/**
 * Moves a job from one of `from` to `to` and appends the timeline event, in one transaction.
 * Returns the event's seq, or null when the job was not in an allowed state (lost race, cancelled).
 */
export async function transitionJob(
  db: DB,
  jobId: string,
  from: JobStatus[],
  to: JobStatus,
  patch: Partial<Pick<JobRow, "stage" | "error" | "startedAt" | "finishedAt" | "pagesDone" | "pagesFailed" | "creditsCharged" | "creditsReserved">>,
  event: { type: string; message: string; data?: Record<string, unknown> },
): Promise<number | null> {
  const now = Date.now();
  const d1 = db.$client;
  const sets = Object.entries({ ...patch, status: to, updatedAt: now }).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), v] as const);
  const [, inserted] = await d1.batch<{ seq: number }>([
    d1
      .prepare(`UPDATE jobs SET ${sets.map(([k]) => `${k} = ?`).join(", ")} WHERE id = ? AND status IN (${from.map(() => "?").join(", ")})`)
      .bind(...sets.map(([, v]) => (v !== null && typeof v === "object" ? JSON.stringify(v) : (v ?? null))), jobId, ...from),
    d1
      .prepare(
        `INSERT INTO job_events (job_id, seq, type, status, stage, message, data, created_at)
         SELECT ?, COALESCE((SELECT MAX(seq) FROM job_events WHERE job_id = ?), 0) + 1, ?, ?, ?, ?, ?, ? WHERE changes() = 1 RETURNING seq`,
      )
      .bind(jobId, jobId, event.type, to, patch.stage ?? null, event.message, JSON.stringify(event.data ?? {}), now),
  ]);
  return inserted?.results[0]?.seq ?? null;
}/** Appends a progress event (not a transition) and returns its seq. */
export async function appendEvent(db: DB, jobId: string, e: { type: string; message: string; page?: number; data?: Record<string, unknown> }): Promise<number> {
  const row = await db.$client
    .prepare(
      `INSERT INTO job_events (job_id, seq, type, page, message, data, created_at)
       SELECT ?, COALESCE((SELECT MAX(seq) FROM job_events WHERE job_id = ?), 0) + 1, ?, ?, ?, ?, ? RETURNING seq`,
    )
    .bind(jobId, jobId, e.type, e.page ?? null, e.message, JSON.stringify(e.data ?? {}), Date.now())
    .first<{ seq: number }>();
  return row!.seq;
}

export async function timeline(db: DB, jobId: string) {
  return db.select().from(jobEvents).where(eq(jobEvents.jobId, jobId)).orderBy(jobEvents.seq);
}

export async function updateJob(db: DB, jobId: string, patch: Partial<NewJob>): Promise<void> {
  await db.update(jobs).set({ ...patch, updatedAt: Date.now() }).where(eq(jobs.id, jobId));
}

/** Replaces a page's recognised regions (idempotent for a retried step). */
export async function savePageRegions(
  db: DB,
  p: { projectId: string; pageId: string; pageIndex: number; width: number; height: number; imageKey: string; sourceKey: string; language: string },
  rs: (Omit<typeof regions.$inferInsert, "projectId" | "pageId">)[],
) {
  const now = Date.now();
  await db.batch([
    db
      .insert(pages)
      .values({ id: p.pageId, projectId: p.projectId, pageIndex: p.pageIndex, width: p.width, height: p.height, imageKey: p.imageKey, sourceKey: p.sourceKey, path: "ocr", status: "ready", detectedLanguage: p.language, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: [pages.projectId, pages.pageIndex], set: { width: p.width, height: p.height, imageKey: p.imageKey, status: "ready", updatedAt: now } }),
    db.delete(regions).where(eq(regions.pageId, p.pageId)),
    ...rs.map((r) => db.insert(regions).values({ ...r, projectId: p.projectId, pageId: p.pageId })),
  ]);
}

export async function insertExports(db: DB, rows: (typeof exportFiles.$inferInsert)[]) {
  const [first, ...rest] = rows.map((r) => db.insert(exportFiles).values(r).onConflictDoNothing());
  if (first) await db.batch([first, ...rest]);
}

export async function setProjectStatus(db: DB, projectId: string, status: typeof projects.$inferSelect.status) {
  await db.update(projects).set({ status, updatedAt: Date.now() }).where(eq(projects.id, projectId));
}
