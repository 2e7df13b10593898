import { createRoute, z } from "@hono/zod-openapi";
import { authed, errors, json, Paging } from "../../http/openapi";
import { requireAuth } from "../../http/auth";
import { IdempotencyHeader, idempotent } from "../../http/idempotency";
import { BatchBody, CostEstimateOut, CreateJobRequest, EstimateQuery, JobIdParam, JobListOut, JobListQuery, JobOut, ProcessBody } from "./jobs.schemas";

export const processFile = createRoute({
  method: "post",
  path: "/api/v1/process",
  operationId: "processFile",
  tags: ["Jobs"],
  summary: "Upload a file with processing options; the job starts at once",
  security: authed,
  middleware: [requireAuth, idempotent()] as const,
  request: {
    headers: IdempotencyHeader,
    body: { content: { "multipart/form-data": { schema: ProcessBody } }, required: true },
  },
  responses: { 202: json(JobOut, "Job accepted"), ...errors(400, 401, 402, 409, 413, 415, 422, 429, 503) },
});

export const uploadBatch = createRoute({
  method: "post",
  path: "/api/v1/batch",
  operationId: "uploadBatch",
  tags: ["Jobs"],
  summary: "Upload several files with one set of options: a parent job and one child job per file",
  description: "Each file becomes an ordinary job (`parent_job_id` = the returned parent) that fails alone. When every file is finished the parent builds a ZIP of their exports (a folder per file) and a CSV report.",
  security: authed,
  middleware: [requireAuth, idempotent()] as const,
  request: {
    headers: IdempotencyHeader,
    body: { content: { "multipart/form-data": { schema: BatchBody } }, required: true },
  },
  responses: { 202: json(JobOut, "Batch accepted (the parent job)"), ...errors(400, 401, 402, 403, 409, 413, 422, 429, 503) },
});

export const estimateCost = createRoute({
  method: "post",
  path: "/api/v1/estimate",
  operationId: "estimateCost",
  tags: ["Jobs"],
  summary: "Price of a job with these options and this many pages (the same function charges)",
  security: authed,
  middleware: [requireAuth] as const,
  request: {
    query: EstimateQuery,
    body: { content: { "application/json": { schema: CreateJobRequest } }, required: true },
  },
  responses: { 200: json(CostEstimateOut, "The estimate"), ...errors(400, 401, 422) },
});

export const cancelJob = createRoute({
  method: "post",
  path: "/api/v1/jobs/{job_id}/cancel",
  operationId: "cancelJob",
  tags: ["Jobs"],
  summary: "Cancel a queued or running job (a batch: with its unfinished files); its hold is released",
  security: authed,
  middleware: [requireAuth] as const,
  request: { params: JobIdParam },
  responses: { 200: json(JobOut, "The cancelled job"), ...errors(401, 404, 409, 422) },
});

export const retryJob = createRoute({
  method: "post",
  path: "/api/v1/jobs/{job_id}/retry",
  operationId: "retryJob",
  tags: ["Jobs"],
  summary: "Re-run a failed, cancelled or partially completed job (only its failed pages; for a batch, its failed files)",
  security: authed,
  middleware: [requireAuth] as const,
  request: { params: JobIdParam },
  responses: { 200: json(JobOut, "The job, queued again"), ...errors(401, 402, 404, 409, 422, 503) },
});

export const retryFailed = createRoute({
  method: "post",
  path: "/api/v1/jobs/{job_id}/retry-failed",
  operationId: "retryFailedBatchFiles",
  tags: ["Jobs"],
  summary: "Batch only: re-run the files that failed, then rebuild the ZIP and report",
  security: authed,
  middleware: [requireAuth] as const,
  request: { params: JobIdParam },
  responses: { 200: json(JobOut, "The batch parent, queued again"), ...errors(401, 402, 404, 409, 422, 503) },
});

export const getJob = createRoute({
  method: "get",
  path: "/api/v1/jobs/{job_id}",
  operationId: "getJob",
  tags: ["Jobs"],
  summary: "Read a job (poll until a terminal state)",
  security: authed,
  middleware: [requireAuth] as const,
  request: { params: JobIdParam },
  responses: { 200: json(JobOut, "The job"), ...errors(401, 404, 422) },
});

export const listJobs = createRoute({
  method: "get",
  path: "/api/v1/jobs",
  operationId: "listJobs",
  tags: ["Jobs"],
  summary: "List jobs, newest first",
  security: authed,
  middleware: [requireAuth] as const,
  request: { query: JobListQuery.extend(Paging.shape) },
  responses: { 200: json(JobListOut, "A page of jobs"), ...errors(401, 422) },
});

export const jobTimeline = createRoute({
  method: "get",
  path: "/api/v1/jobs/{job_id}/timeline",
  operationId: "getJobTimeline",
  tags: ["Jobs"],
  summary: "Every transition and progress event of a job, with timestamps",
  security: authed,
  middleware: [requireAuth] as const,
  request: { params: JobIdParam },
  responses: { 200: json(z.record(z.string(), z.unknown()), "Timeline"), ...errors(401, 404, 422) },
});

export const jobEvents = createRoute({
  method: "get",
  path: "/api/v1/jobs/{job_id}/events",
  operationId: "streamJobEvents",
  tags: ["Jobs"],
  summary: "Progress as Server-Sent Events (`status`, `progress` with percent, `warning`, then `done`); resumes with Last-Event-ID",
  security: authed,
  middleware: [requireAuth] as const,
  request: { params: JobIdParam },
  responses: { 200: { description: "Event stream", content: { "text/event-stream": { schema: z.string() } } }, ...errors(401, 404, 422) },
});
