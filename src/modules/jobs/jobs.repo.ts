import { and, count, eq, inArray, or, type SQL } from "drizzle-orm";
import { chunks, queryInChunks } from "../../db/chunks";
import type { DB } from "../../db/client";
import { firstRow, newestFirst, pageWithTotal } from "../../db/rows";
import { jobEvents, jobPages, jobs } from "../../db/schema";
import type { JobPageStatus } from "../../db/schema/enums";
import { projectPort } from "./project-port";
import type { JobStage, JobStatus } from "./tools";
import { type AccountRows, ownRows } from "../../db/account-rows";

/** The account's jobs, for its data export. */
export const ACCOUNT_ROWS: AccountRows = { jobs: ownRows("jobs") };

export type JobRow = typeof jobs.$inferSelect;
export type NewJob = typeof jobs.$inferInsert;
type NewEvent = { type: string; status: JobStatus; message: string; data?: Record<string, unknown> };
export type JobPageRow = typeof jobPages.$inferSelect;

export async function findJob(db: DB, userId: string, jobId: string): Promise<JobRow | undefined> {
  return firstRow(db, jobs, and(eq(jobs.id, jobId), eq(jobs.userId, userId)));
}

export async function getJob(db: DB, jobId: string): Promise<JobRow | undefined> {
  return firstRow(db, jobs, eq(jobs.id, jobId));
}

export async function listJobs(
  db: DB,
  userId: string,
  f: { status?: JobStatus; tool?: JobRow["tool"]; parentJobId?: string; limit: number; offset: number },
) {
  const where: SQL[] = [eq(jobs.userId, userId)];
  if (f.status) where.push(eq(jobs.status, f.status));
  if (f.tool) where.push(eq(jobs.tool, f.tool));
  if (f.parentJobId) where.push(eq(jobs.parentJobId, f.parentJobId));
  return pageWithTotal(db, jobs, and(...where), newestFirst(jobs), f);
}

/** A batch's children in upload order. */
export async function childrenOf(db: DB, parentJobId: string): Promise<JobRow[]> {
  return db.select().from(jobs).where(eq(jobs.parentJobId, parentJobId)).orderBy(jobs.batchIndex);
}

/** The pages of these jobs counted by (status, stage). */
const progressOf = (db: DB, jobIds: string[]) =>
  db
    .select({ jobId: jobPages.jobId, status: jobPages.status, stage: jobPages.stage, n: count() })
    .from(jobPages)
    .where(inArray(jobPages.jobId, jobIds))
    .groupBy(jobPages.jobId, jobPages.status, jobPages.stage);

export type PageProgressRow = Awaited<ReturnType<typeof progressOf>>[number];

/** Per job: how many pages are in each (status, stage); the JobOut progress is computed from it. */
export async function pageProgress(db: DB, jobIds: string[]): Promise<PageProgressRow[]> {
  return queryInChunks(jobIds, (run) => progressOf(db, run));
}

/**
 * A user's job with its pages' progress, in one D1 round trip (what every poll of a job reads).
 * The progress is read by job id alone and returned only with a job the user owns.
 */
export async function findJobWithProgress(
  db: DB,
  userId: string,
  jobId: string,
): Promise<{ job: JobRow; progress: PageProgressRow[] } | undefined> {
  const [found, progress] = await db.batch([
    db
      .select()
      .from(jobs)
      .where(and(eq(jobs.id, jobId), eq(jobs.userId, userId)))
      .limit(1),
    progressOf(db, [jobId]),
  ]);
  return found[0] ? { job: found[0], progress } : undefined;
}

export async function jobPageRows(db: DB, jobId: string): Promise<JobPageRow[]> {
  return db.select().from(jobPages).where(eq(jobPages.jobId, jobId)).orderBy(jobPages.pageIndex);
}

/** The jobs whose files belong to a project: the one that created it and any later one on it. */
export async function jobIdsOfProject(db: DB, projectId: string, sourceJobId: string | null): Promise<string[]> {
  const rows = await db
    .select({ id: jobs.id })
    .from(jobs)
    .where(sourceJobId ? or(eq(jobs.projectId, projectId), eq(jobs.id, sourceJobId)) : eq(jobs.projectId, projectId));
  return rows.map((r) => r.id);
}

/** Inserts a new job (with its project and per-page rows when it has a document) and its first timeline events, atomically. */
export async function insertJob(
  db: DB,
  job: NewJob,
  project: { id: string; name: string; sourceLanguage: string | null; targetLanguage: string | null; pageCount: number } | null,
  events: NewEvent[],
) {
  const now = Date.now();
  await db.batch([
    db.insert(jobs).values({ ...job, projectId: null }),
    ...(project
      ? [
          projectPort().createStatement(db, { ...project, userId: job.userId, tool: job.tool, sourceJobId: job.id }, now),
          db.update(jobs).set({ projectId: project.id }).where(eq(jobs.id, job.id)),
        ]
      : []),
    ...pageRows(
      db,
      job.id,
      Array.from({ length: job.pagesTotal ?? 0 }, (_, page) => page),
      now,
    ),
    ...firstEvents(db, job.id, events, now),
  ]);
}

function pageRows(db: DB, jobId: string, pageIndexes: number[], now: number) {
  return pageIndexes.map((page) => db.insert(jobPages).values({ jobId, pageIndex: page, status: "pending", updatedAt: now }));
}

function firstEvents(db: DB, jobId: string, events: NewEvent[], now: number) {
  return events.map((e, i) =>
    db
      .insert(jobEvents)
      .values({ jobId, seq: i + 1, type: e.type, status: e.status, message: e.message, data: e.data ?? {}, createdAt: now }),
  );
}

/** Inserts a re-render of an existing project: the job, a row per page it redraws and its first events, atomically. */
export async function insertRerenderJob(db: DB, job: NewJob & { projectId: string }, pageIndexes: number[], events: NewEvent[]) {
  const now = Date.now();
  await db.batch([db.insert(jobs).values(job), ...pageRows(db, job.id, pageIndexes, now), ...firstEvents(db, job.id, events, now)]);
}

/** Removes jobs that were refused before they started, with the projects they created. */
export async function deleteJobs(db: DB, jobIds: string[]): Promise<void> {
  const [first, ...rest] = chunks(jobIds).flatMap((run) => [
    projectPort().deleteOfJobsStatement(db, run),
    db.delete(jobs).where(inArray(jobs.id, run)),
  ]);
  if (first) await db.batch([first, ...rest]);
}

/** A column value in a transition: a plain value, or an SQL expression over the row (e.g. an increment). */
export type PatchValue = string | number | null | Record<string, unknown> | { sql: string; args: unknown[] };

function isSqlExpr(v: PatchValue): v is { sql: string; args: unknown[] } {
  return (
    v !== null && typeof v === "object" && typeof (v as { sql?: unknown }).sql === "string" && Array.isArray((v as { args?: unknown }).args)
  );
}

function snake(k: string): string {
  return k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

export interface Transition {
  jobId: string;
  /** The attempt the caller works for: a stale workflow of an earlier attempt cannot move the job. */
  attempt: number;
  from: JobStatus[];
  to: JobStatus;
  patch?: Partial<Record<keyof JobRow, PatchValue>>;
  /** Extra condition on the job update (SQL over the jobs row). */
  requireSql?: { sql: string; args: unknown[] };
  event: { message: string; data?: Record<string, unknown> };
  /** Also append the `done` event (terminal transitions). */
  done?: boolean;
  /** Statements run before the job update in the same transaction (e.g. a hold the update requires). */
  before?: D1PreparedStatement[];
  /** Statements run after it (e.g. a settlement guarded on the new status). */
  after?: D1PreparedStatement[];
}

/**
 * Moves a job from one of `from` to `to` and appends its timeline events, in one D1 transaction
 * together with the caller's money statements. Returns the seqs of the events written, or null
 * when the job was not in an allowed state for this attempt (a lost race: cancelled, retried,
 * finished elsewhere). D1 runs a batch as one transaction, so of two racing transitions exactly
 * one updates the row, and only its guarded money move happens.
 */
export async function commitTransition(db: DB, t: Transition): Promise<{ seq: number; doneSeq: number | null } | null> {
  const now = Date.now();
  const d1 = db.$client;
  const sets: [string, string, unknown[]][] = Object.entries({ ...t.patch, status: t.to, updatedAt: now } as Record<
    string,
    PatchValue
  >).map(([k, v]) =>
    isSqlExpr(v) ? [snake(k), v.sql, v.args] : [snake(k), "?", [v !== null && typeof v === "object" ? JSON.stringify(v) : v]],
  );
  const update = d1
    .prepare(
      `UPDATE jobs SET ${sets.map(([k, expr]) => `${k} = ${expr}`).join(", ")}
       WHERE id = ? AND attempt = ? AND status IN (${t.from.map(() => "?").join(", ")})${t.requireSql ? ` AND (${t.requireSql.sql})` : ""}`,
    )
    .bind(...sets.flatMap(([, , args]) => args), t.jobId, t.attempt, ...t.from, ...(t.requireSql?.args ?? []));
  const stage = typeof t.patch?.stage === "string" ? t.patch.stage : null;
  const statusEvent = d1
    .prepare(
      `INSERT INTO job_events (job_id, seq, type, status, stage, message, data, created_at)
       SELECT ?, COALESCE((SELECT MAX(seq) FROM job_events WHERE job_id = ?), 0) + 1, 'status', ?, ?, ?, ?, ? WHERE changes() = 1 RETURNING seq`,
    )
    .bind(t.jobId, t.jobId, t.to, stage, t.event.message, JSON.stringify({ attempt: t.attempt, ...t.event.data }), now);
  const doneEvent = d1
    .prepare(
      `INSERT INTO job_events (job_id, seq, type, status, message, data, created_at)
       SELECT ?, COALESCE((SELECT MAX(seq) FROM job_events WHERE job_id = ?), 0) + 1, 'done', ?, ?, ?, ? WHERE changes() = 1 RETURNING seq`,
    )
    .bind(t.jobId, t.jobId, t.to, `Finished: ${t.to}`, JSON.stringify({ attempt: t.attempt }), now);
  const before = t.before ?? [];
  const results = await d1.batch<{ seq: number }>([...before, update, statusEvent, ...(t.done ? [doneEvent] : []), ...(t.after ?? [])]);
  const seq = results[before.length + 1]?.results[0]?.seq;
  if (seq === undefined) return null;
  return { seq, doneSeq: t.done ? (results[before.length + 2]?.results[0]?.seq ?? null) : null };
}

/** The newest status event (and the `done` after it) of a job: what a repeated terminal step re-publishes. */
export async function lastStatusEvents(db: DB, jobId: string) {
  return db.$client
    .prepare(
      "SELECT seq, type, status, message, data FROM job_events WHERE job_id = ? AND type IN ('status', 'done') ORDER BY seq DESC LIMIT 2",
    )
    .bind(jobId)
    .all<{ seq: number; type: string; status: JobStatus; message: string; data: string }>()
    .then((r) => r.results);
}

/**
 * The admission condition of a queued job: its owner runs fewer than `limit` jobs now. Used as the
 * `requireSql` of the transition into the first stage, the count and the update are one statement,
 * and D1 applies writes one at a time, so two jobs cannot take the last slot together.
 */
export function admissionGuard(userId: string, limit: number, running: JobStage[]) {
  return {
    sql: `(SELECT COUNT(*) FROM jobs AS r WHERE r.user_id = ? AND r.kind != 'batch' AND r.status IN (${running.map(() => "?").join(", ")})) < ?`,
    args: [userId, ...running, limit],
  };
}

/** A guard for statements that commit with a transition: the job is at `attempt` in one of `statuses`. */
export function jobIsGuard(jobId: string, attempt: number, statuses: readonly JobStatus[]): { sql: string; args: unknown[] } {
  return {
    sql: `EXISTS (SELECT 1 FROM jobs WHERE id = ? AND attempt = ? AND status IN (${statuses.map(() => "?").join(", ")}))`,
    args: [jobId, attempt, ...statuses],
  };
}

/** With a cancel: the attempt's unfinished pages end cancelled (pages it finished are kept). */
export function cancelOpenPagesStatement(db: DB, jobId: string, attempt: number): D1PreparedStatement {
  return db.$client
    .prepare(
      "UPDATE job_pages SET status = 'cancelled', updated_at = ? WHERE job_id = ? AND status IN ('pending', 'processing') AND EXISTS (SELECT 1 FROM jobs WHERE id = ? AND attempt = ? AND status = 'cancelled')",
    )
    .bind(Date.now(), jobId, jobId, attempt);
}

/** With a retry into `attempt`: pages not completed go back to pending. */
export function resetUnfinishedPagesStatement(db: DB, jobId: string, attempt: number): D1PreparedStatement {
  return db.$client
    .prepare(
      "UPDATE job_pages SET status = 'pending', stage = NULL, error_code = NULL, error_message = NULL, finished_at = NULL, updated_at = ? WHERE job_id = ? AND status != 'completed' AND EXISTS (SELECT 1 FROM jobs WHERE id = ? AND attempt = ? AND status = 'queued')",
    )
    .bind(Date.now(), jobId, jobId, attempt);
}

/** Appends a progress event (not a transition); the statement returns its seq. */
export function appendEventStatement(
  db: DB,
  jobId: string,
  e: { type: string; message: string; page?: number; stage?: JobStage; data?: Record<string, unknown> },
): D1PreparedStatement {
  return db.$client
    .prepare(
      `INSERT INTO job_events (job_id, seq, type, stage, page, message, data, created_at)
       SELECT ?, COALESCE((SELECT MAX(seq) FROM job_events WHERE job_id = ?), 0) + 1, ?, ?, ?, ?, ?, ? RETURNING seq`,
    )
    .bind(jobId, jobId, e.type, e.stage ?? null, e.page ?? null, e.message, JSON.stringify(e.data ?? {}), Date.now());
}

export async function timeline(db: DB, jobId: string) {
  return db.select().from(jobEvents).where(eq(jobEvents.jobId, jobId)).orderBy(jobEvents.seq);
}

/** Records where a page is: its last finished stage, or its failure. */
export function markPageStatement(
  db: DB,
  jobId: string,
  page: number,
  p: { status: JobPageStatus; stage: JobStage; error?: { code: string; message: string } },
): D1PreparedStatement {
  const now = Date.now();
  const finished = p.status === "completed" || p.status === "failed" ? now : null;
  return db.$client
    .prepare(
      "UPDATE job_pages SET status = ?, stage = ?, error_code = ?, error_message = ?, finished_at = ?, updated_at = ? WHERE job_id = ? AND page_index = ?",
    )
    .bind(p.status, p.stage, p.error?.code ?? null, p.error?.message ?? null, finished, now, jobId, page);
}

export async function markPage(db: DB, jobId: string, page: number, p: Parameters<typeof markPageStatement>[3]) {
  await markPageStatement(db, jobId, page, p).run();
}

/** Records which page row a job's page wrote (in the same batch as the page's rows). */
export function linkJobPageStatement(db: DB, jobId: string, pageIndex: number, pageId: string) {
  return db
    .update(jobPages)
    .set({ pageId, updatedAt: Date.now() })
    .where(and(eq(jobPages.jobId, jobId), eq(jobPages.pageIndex, pageIndex)));
}
