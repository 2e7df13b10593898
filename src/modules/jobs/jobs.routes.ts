import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import type { AppEnv } from "../../env";
import { requireAuth } from "../../http/auth";
import { IdempotencyHeader, idempotent } from "../../http/idempotency";
import { errors, json, Paging } from "../../http/openapi";
import { answerWith, authedRoutes, jsonBody } from "../../http/route";
import { createBatch } from "./batch.service";
import * as control from "./job-control.service";
import * as repo from "./jobs.repo";
import type { JobRow } from "./jobs.repo";
import * as schemas from "./jobs.schemas";
import * as service from "./jobs.service";

const job = authedRoutes("Jobs");
const idempotentUpload = [requireAuth, idempotent()];
const form = <T extends z.ZodType>(schema: T) => ({ content: { "multipart/form-data": { schema } }, required: true });
/** The job as it is now, as JobOut. */
const answerJob = async <S extends 200 | 202>(c: Context<AppEnv>, found: JobRow, status: S) =>
  c.json(await service.toJobOut(c.get("db"), found), status);

export const jobRoutes = [
  job("post", "/api/v1/process", "processFile", {
    summary: "Upload a file with processing options; the job starts at once",
    middleware: idempotentUpload,
    request: { headers: IdempotencyHeader, body: form(schemas.ProcessBody) },
    responses: { 202: json(schemas.JobOut, "Job accepted"), ...errors(400, 401, 402, 409, 413, 415, 422, 429, 503) },
    handler: async (c) => {
      const body = await c.req.parseBody();
      return answerJob(c, await service.createJob(c.env, c.get("db"), c.get("auth"), body.file, body.options), 202);
    },
  }),
  job("post", "/api/v1/batch", "uploadBatch", {
    summary: "Upload several files with one set of options: a parent job and one child job per file",
    description:
      "Each file becomes an ordinary job (`parent_job_id` = the returned parent) that fails alone. When every file is finished the parent builds a ZIP of their exports (a folder per file) and a CSV report.",
    middleware: idempotentUpload,
    request: { headers: IdempotencyHeader, body: form(schemas.BatchBody) },
    responses: { 202: json(schemas.JobOut, "Batch accepted (the parent job)"), ...errors(400, 401, 402, 403, 409, 413, 422, 429, 503) },
    handler: async (c) => answerJob(c, await createBatch(c.env, c.get("db"), c.get("auth"), await c.req.parseBody({ all: true })), 202),
  }),
  job("post", "/api/v1/estimate", "estimateCost", {
    summary: "Price of a job with these options and this many pages (the same function charges)",
    request: { query: schemas.EstimateQuery, ...jsonBody(schemas.CreateJobRequest) },
    responses: { 200: json(schemas.CostEstimateOut, "The estimate"), ...errors(400, 401, 422) },
    handler: answerWith((c) => service.estimate(c.get("db"), c.get("auth"), c.req.valid("json"), c.req.valid("query").pages)),
  }),
  job("get", "/api/v1/jobs/{job_id}", "getJob", {
    summary: "Read a job (poll until a terminal state)",
    request: { params: schemas.JobIdParam },
    responses: { 200: json(schemas.JobOut, "The job"), ...errors(401, 404, 422) },
    handler: answerWith((c) => service.ownJobOut(c.get("db"), c.get("auth"), c.req.valid("param").job_id)),
  }),
  job("get", "/api/v1/jobs", "listJobs", {
    summary: "List jobs, newest first",
    request: { query: schemas.JobListQuery.extend(Paging.shape) },
    responses: { 200: json(schemas.JobListOut, "A page of jobs"), ...errors(401, 422) },
    handler: async (c) => {
      const q = c.req.valid("query");
      const { items, total } = await repo.listJobs(c.get("db"), c.get("auth").userId, {
        status: q.job_status,
        tool: q.job_type,
        parentJobId: q.parent_job_id,
        limit: q.limit,
        offset: q.offset,
      });
      return c.json({ items: await service.toJobOuts(c.get("db"), items), total, limit: q.limit, offset: q.offset }, 200);
    },
  }),
  job("post", "/api/v1/jobs/{job_id}/cancel", "cancelJob", {
    summary: "Cancel a queued or running job (a batch: with its unfinished files); its hold is released",
    request: { params: schemas.JobIdParam },
    responses: { 200: json(schemas.JobOut, "The cancelled job"), ...errors(401, 404, 409, 422) },
    handler: async (c) => answerJob(c, await control.cancelJob(c.env, c.get("db"), c.get("auth"), c.req.valid("param").job_id), 200),
  }),
  job("post", "/api/v1/jobs/{job_id}/retry", "retryJob", {
    summary: "Re-run a failed, cancelled or partially completed job (only its failed pages; for a batch, its failed files)",
    request: { params: schemas.JobIdParam },
    responses: { 200: json(schemas.JobOut, "The job, queued again"), ...errors(401, 402, 404, 409, 422, 503) },
    handler: async (c) => answerJob(c, await control.retryJob(c.env, c.get("db"), c.get("auth"), c.req.valid("param").job_id), 200),
  }),
  job("post", "/api/v1/jobs/{job_id}/retry-failed", "retryFailedBatchFiles", {
    summary: "Batch only: re-run the files that failed, then rebuild the ZIP and report",
    request: { params: schemas.JobIdParam },
    responses: { 200: json(schemas.JobOut, "The batch parent, queued again"), ...errors(401, 402, 404, 409, 422, 503) },
    handler: async (c) => answerJob(c, await control.retryFailed(c.env, c.get("db"), c.get("auth"), c.req.valid("param").job_id), 200),
  }),
  job("get", "/api/v1/jobs/{job_id}/timeline", "getJobTimeline", {
    summary: "Every transition and progress event of a job, with timestamps",
    request: { params: schemas.JobIdParam },
    responses: { 200: json(z.record(z.string(), z.unknown()), "Timeline"), ...errors(401, 404, 422) },
    handler: answerWith(async (c) => {
      const found = await service.getOwnJob(c.get("db"), c.get("auth"), c.req.valid("param").job_id);
      return service.timelineOf(c.get("db"), found);
    }),
  }),
  job("get", "/api/v1/jobs/{job_id}/events", "streamJobEvents", {
    summary: "Progress as Server-Sent Events (`status`, `progress` with percent, `warning`, then `done`); resumes with Last-Event-ID",
    request: { params: schemas.JobIdParam },
    responses: { 200: { description: "Event stream", content: { "text/event-stream": { schema: z.string() } } }, ...errors(401, 404, 422) },
    handler: async (c) => {
      const found = await service.getOwnJob(c.get("db"), c.get("auth"), c.req.valid("param").job_id);
      return service.eventStream(c.env, found.id, c.req.raw) as never;
    },
  }),
];
