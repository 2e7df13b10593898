import { createRoute, z } from "@hono/zod-openapi";
import { authed, errors, json, Paging } from "../../http/openapi";
import { requireAuth } from "../../http/auth";
import { JobIdParam, JobListOut, JobListQuery, JobOut, ProcessBody } from "./jobs.schemas";

export const processFile = createRoute({
  method: "post",
  path: "/api/v1/process",
  operationId: "processFile",
  tags: ["Jobs"],
  summary: "Upload a file with processing options; the job starts at once",
  security: authed,
  middleware: [requireAuth] as const,
  request: {
    headers: z.object({ "idempotency-key": z.string().min(1).max(255).optional() }),
    body: { content: { "multipart/form-data": { schema: ProcessBody } }, required: true },
  },
  responses: { 202: json(JobOut, "Job accepted"), ...errors(400, 401, 402, 413, 415, 422, 429, 503) },
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
  summary: "Progress as Server-Sent Events (`status`, `progress`, then `done`); resumes with Last-Event-ID",
  security: authed,
  middleware: [requireAuth] as const,
  request: { params: JobIdParam },
  responses: { 200: { description: "Event stream", content: { "text/event-stream": { schema: z.string() } } }, ...errors(401, 404, 422) },
});
