import { z } from "@hono/zod-openapi";
import { errors, json, Paging } from "../../http/openapi";
import { requireAuth } from "../../http/auth";
import { IdempotencyHeader, idempotent } from "../../http/idempotency";
import {
  BatchBody,
  CostEstimateOut,
  CreateJobRequest,
  EstimateQuery,
  JobIdParam,
  JobListOut,
  JobListQuery,
  JobOut,
  ProcessBody,
} from "./jobs.schemas";
import { authedRoutes, jsonBody, operation } from "../../http/route";

const jobsRoute = authedRoutes("Jobs");

export const processFile = jobsRoute({
  ...operation("post", "/api/v1/process", "processFile"),
  summary: "Upload a file with processing options; the job starts at once",
  middleware: [requireAuth, idempotent()] as const,
  request: {
    headers: IdempotencyHeader,
    body: { content: { "multipart/form-data": { schema: ProcessBody } }, required: true },
  },
  responses: { 202: json(JobOut, "Job accepted"), ...errors(400, 401, 402, 409, 413, 415, 422, 429, 503) },
});

export const uploadBatch = jobsRoute({
  ...operation("post", "/api/v1/batch", "uploadBatch"),
  summary: "Upload several files with one set of options: a parent job and one child job per file",
  description:
    "Each file becomes an ordinary job (`parent_job_id` = the returned parent) that fails alone. When every file is finished the parent builds a ZIP of their exports (a folder per file) and a CSV report.",
  middleware: [requireAuth, idempotent()] as const,
  request: {
    headers: IdempotencyHeader,
    body: { content: { "multipart/form-data": { schema: BatchBody } }, required: true },
  },
  responses: { 202: json(JobOut, "Batch accepted (the parent job)"), ...errors(400, 401, 402, 403, 409, 413, 422, 429, 503) },
});

export const estimateCost = jobsRoute({
  ...operation("post", "/api/v1/estimate", "estimateCost"),
  summary: "Price of a job with these options and this many pages (the same function charges)",
  request: {
    query: EstimateQuery,
    ...jsonBody(CreateJobRequest),
  },
  responses: { 200: json(CostEstimateOut, "The estimate"), ...errors(400, 401, 422) },
});

export const cancelJob = jobsRoute({
  ...operation("post", "/api/v1/jobs/{job_id}/cancel", "cancelJob"),
  summary: "Cancel a queued or running job (a batch: with its unfinished files); its hold is released",
  request: { params: JobIdParam },
  responses: { 200: json(JobOut, "The cancelled job"), ...errors(401, 404, 409, 422) },
});

export const retryJob = jobsRoute({
  ...operation("post", "/api/v1/jobs/{job_id}/retry", "retryJob"),
  summary: "Re-run a failed, cancelled or partially completed job (only its failed pages; for a batch, its failed files)",
  request: { params: JobIdParam },
  responses: { 200: json(JobOut, "The job, queued again"), ...errors(401, 402, 404, 409, 422, 503) },
});

export const retryFailed = jobsRoute({
  ...operation("post", "/api/v1/jobs/{job_id}/retry-failed", "retryFailedBatchFiles"),
  summary: "Batch only: re-run the files that failed, then rebuild the ZIP and report",
  request: { params: JobIdParam },
  responses: { 200: json(JobOut, "The batch parent, queued again"), ...errors(401, 402, 404, 409, 422, 503) },
});

export const getJob = jobsRoute({
  ...operation("get", "/api/v1/jobs/{job_id}", "getJob"),
  summary: "Read a job (poll until a terminal state)",
  request: { params: JobIdParam },
  responses: { 200: json(JobOut, "The job"), ...errors(401, 404, 422) },
});

export const listJobs = jobsRoute({
  ...operation("get", "/api/v1/jobs", "listJobs"),
  summary: "List jobs, newest first",
  request: { query: JobListQuery.extend(Paging.shape) },
  responses: { 200: json(JobListOut, "A page of jobs"), ...errors(401, 422) },
});

export const jobTimeline = jobsRoute({
  ...operation("get", "/api/v1/jobs/{job_id}/timeline", "getJobTimeline"),
  summary: "Every transition and progress event of a job, with timestamps",
  request: { params: JobIdParam },
  responses: { 200: json(z.record(z.string(), z.unknown()), "Timeline"), ...errors(401, 404, 422) },
});

export const jobEvents = jobsRoute({
  ...operation("get", "/api/v1/jobs/{job_id}/events", "streamJobEvents"),
  summary: "Progress as Server-Sent Events (`status`, `progress` with percent, `warning`, then `done`); resumes with Last-Event-ID",
  request: { params: JobIdParam },
  responses: { 200: { description: "Event stream", content: { "text/event-stream": { schema: z.string() } } }, ...errors(401, 404, 422) },
});
