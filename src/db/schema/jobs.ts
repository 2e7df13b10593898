import { type AnySQLiteColumn, index, integer, primaryKey, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { apiKeys, ownedRow } from "./auth";
import { createdAt, id, ms, parent, timestamps, updatedAt } from "./columns";
import { JOB_KINDS, JOB_PAGE_STATUSES, JOB_STAGES, JOB_STATUSES, TOOLS } from "./enums";
import { pages, projects } from "./projects";
import type { JobEventData, JobOptions, JobOutput, JobPageKeys, StoredError } from "./types";

/**
 * Pipeline jobs. A batch is one parent (`kind = batch`) plus one child per file
 * (`parent_job_id`); a re-render is a free job on an existing project.
 */
export const jobs = sqliteTable(
  "jobs",
  {
    ...ownedRow(), // job_…
    /** The project the job created or works on; kept as history when the project is deleted. */
    projectId: text("project_id").references((): AnySQLiteColumn => projects.id, { onDelete: "set null" }),
    parentJobId: text("parent_job_id").references((): AnySQLiteColumn => jobs.id, { onDelete: "cascade" }),
    /** Position of a batch child in its batch (order of the uploaded files). */
    batchIndex: integer("batch_index"),
    /** The API key that created the job (null for the web app). */
    apiKeyId: text("api_key_id").references(() => apiKeys.id, { onDelete: "set null" }),
    kind: text("kind", { enum: JOB_KINDS }).notNull().default("single"),
    tool: text("tool", { enum: TOOLS }).notNull(),
    status: text("status", { enum: JOB_STATUSES }).notNull().default("created"),
    /** The stage running now (null before `queued` ends and after a terminal state). */
    stage: text("stage", { enum: JOB_STAGES }),
    options: text("options", { mode: "json" }).$type<JobOptions>().notNull().default({}),
    sourceName: text("source_name"),
    sourceKey: text("source_key"),
    sourceBytes: integer("source_bytes"),
    sourceType: text("source_type"),
    pagesTotal: integer("pages_total").notNull().default(0),
    pagesDone: integer("pages_done").notNull().default(0),
    pagesFailed: integer("pages_failed").notNull().default(0),
    creditsReserved: integer("credits_reserved").notNull().default(0),
    creditsCharged: integer("credits_charged").notNull().default(0),
    error: text("error", { mode: "json" }).$type<StoredError>(),
    output: text("output", { mode: "json" }).$type<JobOutput>(),
    /** The Idempotency-Key of the creating request (the idempotency_keys table is authoritative). */
    idempotencyKey: text("idempotency_key"),
    workflowInstanceId: text("workflow_instance_id"),
    /** Incremented by every retry; workflow instance ids and ledger dedupe keys include it. */
    attempt: integer("attempt").notNull().default(0),
    ...timestamps(),
    startedAt: ms("started_at"),
    finishedAt: ms("finished_at"),
  },
  (t) => [
    index("jobs_user_created_idx").on(t.userId, t.createdAt),
    index("jobs_user_status_created_idx").on(t.userId, t.status, t.createdAt),
    index("jobs_user_tool_created_idx").on(t.userId, t.tool, t.createdAt),
    index("jobs_parent_idx").on(t.parentJobId, t.batchIndex),
    index("jobs_project_created_idx").on(t.projectId, t.createdAt),
    // Sweeps of stuck or old jobs (cron, retention).
    index("jobs_status_updated_idx").on(t.status, t.updatedAt),
    index("jobs_user_idempotency_idx").on(t.userId, t.idempotencyKey),
    index("jobs_api_key_idx").on(t.apiKeyId),
  ],
);

/** Per-page progress of a job (a batch parent has none; its children do). */
export const jobPages = sqliteTable(
  "job_pages",
  {
    jobId: parent("job_id", () => jobs.id),
    /** 0-based page index in the job's document. */
    pageIndex: integer("page_index").notNull(),
    pageId: text("page_id").references(() => pages.id, { onDelete: "set null" }),
    status: text("status", { enum: JOB_PAGE_STATUSES }).notNull().default("pending"),
    stage: text("stage", { enum: JOB_STAGES }),
    errorCode: text("error_code"),
    errorMessage: text("error_message"),
    keys: text("keys", { mode: "json" }).$type<JobPageKeys>().notNull().default({}),
    creditsCharged: integer("credits_charged").notNull().default(0),
    startedAt: ms("started_at"),
    finishedAt: ms("finished_at"),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ name: "job_pages_pk", columns: [t.jobId, t.pageIndex] }), index("job_pages_page_idx").on(t.pageId)],
);

/**
 * Timeline of a job: one row per transition or progress event. `seq` is 1, 2, 3… per job and is
 * the SSE `id:`, so `Last-Event-ID` resumes with `seq > ?`.
 */
export const jobEvents = sqliteTable(
  "job_events",
  {
    jobId: parent("job_id", () => jobs.id),
    seq: integer("seq").notNull(),
    /** SSE event name: status, stage, page, progress, error, done, … */
    type: text("type").notNull(),
    status: text("status", { enum: JOB_STATUSES }),
    stage: text("stage", { enum: JOB_STAGES }),
    page: integer("page"),
    message: text("message"),
    data: text("data", { mode: "json" }).$type<JobEventData>(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ name: "job_events_pk", columns: [t.jobId, t.seq] })],
);
