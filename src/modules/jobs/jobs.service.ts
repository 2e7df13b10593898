import type { z } from "@hono/zod-openapi";
import { parseEngineError } from "../../../workers/engine/contract";
import type { DB } from "../../db/client";
import type { AuthContext } from "../../env";
import { ApiError, isErrorCode } from "../../http/errors";
import { newId } from "../../lib/ids";
import { ocrCodeFor } from "../../lib/languages";
import { LIMITS } from "../../lib/limits";
import { keys } from "../../lib/storage";
import { planOf } from "../billing/plans";
import { holdForJob, priceOf } from "../billing/wallet.service";
import type { JobOut } from "./jobs.schemas";
import { ProcessOptions } from "./jobs.schemas";
import * as repo from "./jobs.repo";
import { TOOLS, type JobStatus } from "./tools";
import { finishJob, publish } from "../../pipeline/job-lifecycle";

/** Turns an engine failure into the matching API error (unknown failures stay internal). */
export function engineFailure(err: unknown): ApiError {
  const parsed = parseEngineError(err);
  if (parsed && isErrorCode(parsed.code)) return new ApiError(parsed.code, parsed.message);
  return new ApiError("engine_unavailable", "The processing engine could not handle the file; try again shortly.");
}

function parseOptions(raw: unknown): z.infer<typeof ProcessOptions> {
  let value: unknown = {};
  if (typeof raw === "string" && raw.trim() !== "") {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new ApiError("validation_error", "The `options` field is not valid JSON.", { details: { fields: [{ location: "form", field: "options", message: "not valid JSON" }] } });
    }
  } else if (raw !== undefined && typeof raw !== "string") {
    throw new ApiError("validation_error", "The `options` field must be JSON text.", { details: { fields: [{ location: "form", field: "options", message: "expected JSON text" }] } });
  }
  const parsed = ProcessOptions.safeParse(value);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => ({ location: "form", field: ["options", ...i.path.map(String)].join("."), message: i.message }));
    throw new ApiError("validation_error", `Invalid options: ${fields.map((f) => `${f.field}: ${f.message}`).join("; ")}`, { details: { fields } });
  }
  const tool = TOOLS[parsed.data.tool];
  const bad = (parsed.data.export_formats ?? []).filter((f) => !tool.export_formats.includes(f));
  if (bad.length) {
    throw new ApiError("validation_error", `Tool ${tool.id} cannot export ${bad.join(", ")}; it offers ${tool.export_formats.join(", ")}.`, {
      details: { fields: [{ location: "form", field: "options.export_formats", message: `not offered by ${tool.id}: ${bad.join(", ")}` }] },
    });
  }
  if (tool.needs_target_language && !parsed.data.target_language) {
    throw new ApiError("validation_error", `Tool ${tool.id} needs a target_language.`, { details: { fields: [{ location: "form", field: "options.target_language", message: "required" }] } });
  }
  return parsed.data;
}

/**
 * POST /process: stores the upload, checks it with the engine (real format and page count),
 * reserves credits, records the job and its project, and starts its PipelineWorkflow.
 * A refused upload leaves nothing behind: no job row, no R2 object, no credit moved.
 */
export async function createJob(env: Env, db: DB, auth: AuthContext, file: unknown, rawOptions: unknown) {
  if (!(file instanceof File)) {
    throw new ApiError("validation_error", "Send the document as the multipart file field `file`.", { details: { fields: [{ location: "form", field: "file", message: "required file" }] } });
  }
  const options = parseOptions(rawOptions);
  if (file.size === 0) throw new ApiError("corrupt_file", "The uploaded file is empty.");
  if (file.size > LIMITS.max_upload_bytes) throw new ApiError("payload_too_large", `Uploads are limited to ${LIMITS.max_upload_bytes} bytes.`, { details: { limit: LIMITS.max_upload_bytes, bytes: file.size } });
  const ocrLanguage = ocrCodeFor(options.source_language);
  if (!ocrLanguage || !(await env.MODELS.head(`tessdata/${ocrLanguage}.traineddata.gz`))) {
    throw new ApiError("unsupported_language", `No OCR model is installed for language "${options.source_language}".`, { details: { language: options.source_language } });
  }

  const jobId = newId("job");
  const sourceKey = keys.upload(auth.userId, jobId);
  let initialEvents: { type: string; status: JobStatus; message: string }[] = [];
  await env.FILES.put(sourceKey, file.stream(), { httpMetadata: { contentType: "application/octet-stream" }, customMetadata: { filename: file.name } });
  try {
    const info = await env.ENGINE.inspect({ sourceKey }).catch((err: unknown) => {
      throw engineFailure(err);
    });
    const plan = planOf(auth.plan);
    if (info.pages > plan.page_limit) {
      throw new ApiError("page_limit_exceeded", `The document has ${info.pages} pages; the ${plan.name} plan allows ${plan.page_limit} per document.`, {
        details: { pages: info.pages, limit: plan.page_limit, plan: plan.id },
      });
    }
    const credits = priceOf(options.tool, info.pages);
    const exportFormats = options.export_formats ?? TOOLS[options.tool].default_exports;
    const now = Date.now();
    initialEvents = [
      { type: "status", status: "created", message: "Job created" },
      { type: "status", status: "uploading", message: `Received ${file.size} bytes (${info.format}, ${info.pages} page${info.pages === 1 ? "" : "s"})` },
      { type: "status", status: "queued", message: "Waiting for the pipeline" },
    ];
    await repo.insertJobWithProject(
      db,
      {
        id: jobId,
        userId: auth.userId,
        projectId: newId("prj"),
        apiKeyId: auth.via === "api_key" ? auth.credentialId : null,
        tool: options.tool,
        status: "queued",
        options: { ...options, export_formats: exportFormats, ocr_languages: [ocrLanguage] },
        sourceName: file.name || "upload",
        sourceKey,
        sourceBytes: file.size,
        sourceType: info.format,
        pagesTotal: info.pages,
        creditsReserved: credits,
        createdAt: now,
        updatedAt: now,
      },
      { name: options.name ?? (file.name || "Untitled"), sourceLanguage: options.source_language, targetLanguage: options.target_language ?? null, pageCount: info.pages },
      initialEvents,
    );
    try {
      await holdForJob(db, { userId: auth.userId, jobId, attempt: 0, credits });
    } catch (err) {
      await repo.deleteJobAndProject(db, jobId);
      throw err;
    }
  } catch (err) {
    await env.FILES.delete(sourceKey);
    throw err;
  }
  await Promise.all(initialEvents.map((e, i) => publish(env, jobId, { seq: i + 1, type: "status", data: { job_id: jobId, status: e.status, message: e.message } })));
  try {
    await env.PIPELINE.create({ id: jobId, params: { jobId } });
  } catch (err) {
    const failure = new ApiError("service_unavailable", "The pipeline could not be started; no credits were charged. Retry the job.");
    await finishJob(env, db, jobId, "failed", failure);
    throw failure;
  }
  return (await repo.getJob(db, jobId))!;
}

function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** The public view of a job. */
export async function toJobOut(db: DB, job: repo.JobRow): Promise<z.infer<typeof JobOut>> {
  const exports = job.status === "completed" || job.status === "partially_completed" ? await repo.jobExports(db, job.id) : [];
  const settled = job.pagesDone + job.pagesFailed;
  return {
    id: job.id,
    status: job.status,
    stage: job.stage,
    tool: job.tool,
    kind: job.kind,
    parent_job_id: job.parentJobId,
    project_id: job.projectId,
    options: job.options,
    source: { name: job.sourceName, bytes: job.sourceBytes, type: job.sourceType },
    progress: {
      pages_total: job.pagesTotal,
      pages_done: job.pagesDone,
      pages_failed: job.pagesFailed,
      percent: job.status === "completed" ? 100 : job.pagesTotal ? Math.floor((100 * settled) / job.pagesTotal) : 0,
    },
    credits: { reserved: job.creditsReserved, charged: job.creditsCharged },
    output: {
      exports: exports
        .filter((e) => e.status === "ready")
        .map((e) => ({
          export_id: e.id,
          format: e.format,
          bytes: e.bytes ?? 0,
          content_type: e.contentType ?? "application/octet-stream",
          filename: e.filename ?? `${e.id}.${e.format}`,
          download: `/api/v1/exports/${e.id}/download`,
        })),
    },
    error: job.error ? { code: job.error.code as never, message: job.error.message, retryable: job.error.retryable, details: job.error.details ?? {} } : null,
    attempt: job.attempt,
    created_at: iso(job.createdAt)!,
    updated_at: iso(job.updatedAt)!,
    started_at: iso(job.startedAt),
    finished_at: iso(job.finishedAt),
  };
}

export async function getOwnJob(db: DB, auth: AuthContext, jobId: string) {
  const job = await repo.findJob(db, auth.userId, jobId);
  if (!job) throw new ApiError("not_found", `No job ${jobId}.`);
  return job;
}

/** The job's timeline: every transition and progress event, oldest first. */
export async function timelineOf(db: DB, job: repo.JobRow) {
  const events = await repo.timeline(db, job.id);
  return {
    job_id: job.id,
    status: job.status,
    events: events.map((e) => ({
      seq: e.seq,
      type: e.type,
      status: e.status,
      stage: e.stage,
      page: e.page,
      message: e.message,
      data: e.data ?? {},
      at: new Date(e.createdAt).toISOString(),
    })),
  };
}

/** The job's SSE stream, served by its JobHub (which replays after Last-Event-ID). */
export async function eventStream(env: Env, jobId: string, request: Request): Promise<Response> {
  const ns = env.JOB_HUB;
  const res = await ns.get(ns.idFromName(jobId)).fetch(request);
  // A response from a Durable Object has immutable headers; copy it so middleware can add X-Request-Id.
  return new Response(res.body, res);
}
