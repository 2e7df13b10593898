import type { z } from "@hono/zod-openapi";
import type { DB } from "../../db/client";
import type { AuthContext } from "../../env";
import { ApiError } from "../../http/errors";
import { newId } from "../../lib/ids";
import { batchPercent, finishJob, instanceIdFor, publish, runningPercent } from "./job-lifecycle";
import { planOf } from "../billing/plans";
import { availableCredits, holdForJob, priceOf } from "../billing/wallet.service";
import {
  checkOptionsServed,
  checkPageLimit,
  checkToolOptions,
  parseOptions,
  requireFile,
  storeAndInspect,
  type JobOptionsIn,
} from "./job-intake";
import { isTerminal, stagesOf } from "./job-state";
import type { CostEstimateOut, JobOut } from "./jobs.schemas";
import { jobExports } from "../exports/exports.service";
import * as repo from "./jobs.repo";
import { TOOLS, type JobStatus } from "./tools";
import { log } from "../../lib/log";
import { iso } from "../../lib/time";

type Event = { type: string; status: JobStatus; message: string; data?: Record<string, unknown> };

/** A status event of a job's timeline, as stored at intake. */
export function statusEvent(status: JobStatus, message: string, data?: Record<string, unknown>): Event {
  return { type: "status", status, message, ...(data ? { data } : {}) };
}

/** The first three timeline events of a job whose upload the engine accepted. */
export function intakeEvents(file: File, info: { format: string; pages: number }): Event[] {
  return [
    statusEvent("created", "Job created"),
    statusEvent("uploading", `Received ${file.size} bytes (${info.format}, ${info.pages} page${info.pages === 1 ? "" : "s"})`),
    statusEvent("queued", "Waiting for the pipeline"),
  ];
}

/** Publishes a new job's stored events to its hub (D1 has them already). */
export async function publishIntake(env: Env, jobId: string, events: Event[]): Promise<void> {
  for (const [i, e] of events.entries()) {
    await publish(env, jobId, {
      seq: i + 1,
      type: e.type === "done" ? "done" : "status",
      data: { job_id: jobId, status: e.status, message: e.message, ...e.data },
    });
  }
}

/** The row of a new job that will run: options normalised, the price reserved for attempt 0. */
export function newJobRow(
  auth: AuthContext,
  p: {
    jobId: string;
    options: JobOptionsIn;
    ocrLanguages: string[];
    file: File;
    sourceKey: string | null;
    format: string | null;
    pages: number;
    credits: number;
  },
): repo.NewJob {
  const now = Date.now();
  return {
    id: p.jobId,
    userId: auth.userId,
    apiKeyId: auth.via === "api_key" ? auth.credentialId : null,
    tool: p.options.tool,
    status: "queued",
    options: {
      ...p.options,
      export_formats: p.options.export_formats ?? TOOLS[p.options.tool].default_exports,
      ocr_languages: p.ocrLanguages,
    },
    sourceName: p.file.name || "upload",
    sourceKey: p.sourceKey,
    sourceBytes: p.file.size,
    sourceType: p.format,
    pagesTotal: p.pages,
    creditsReserved: p.credits,
    workflowInstanceId: instanceIdFor(p.jobId, 0),
    createdAt: now,
    updatedAt: now,
  };
}

/** Starts the Workflow instance of a job's current attempt; if that fails the attempt fails and its hold is released. */
export async function launch(env: Env, db: DB, job: { id: string; attempt: number }): Promise<void> {
  try {
    await env.PIPELINE.create({ id: instanceIdFor(job.id, job.attempt), params: { jobId: job.id, attempt: job.attempt } });
  } catch (err) {
    log.error("workflow create failed", { job_id: job.id, error: err });
    const failure = new ApiError("service_unavailable", "The pipeline could not be started; no credits were charged. Retry the job.");
    await finishJob(env, db, { jobId: job.id, attempt: job.attempt }, "failed", failure);
    throw failure;
  }
}

/**
 * POST /process: stores the upload, checks it with the engine (real format and page count),
 * reserves credits, records the job and its project, and starts its PipelineWorkflow.
 * A refused upload leaves nothing behind: no job row, no R2 object, no credit moved.
 */
export async function createJob(env: Env, db: DB, auth: AuthContext, rawFile: unknown, rawOptions: unknown) {
  const file = requireFile(rawFile);
  const options = parseOptions(rawOptions);
  const ocrLanguages = await checkOptionsServed(env, db, auth.userId, options);
  const jobId = newId("job");
  const { sourceKey, info } = await storeAndInspect(env, auth, jobId, file);
  const events = intakeEvents(file, info);
  try {
    checkPageLimit(auth.plan, info.pages);
    const credits = priceOf(options.tool, info.pages);
    await repo.insertJob(
      db,
      newJobRow(auth, { jobId, options, ocrLanguages, file, sourceKey, format: info.format, pages: info.pages, credits }),
      {
        id: newId("prj"),
        name: options.name ?? (file.name || "Untitled"),
        sourceLanguage: options.source_language,
        targetLanguage: options.target_language ?? null,
        pageCount: info.pages,
      },
      events,
    );
    try {
      await holdForJob(db, { userId: auth.userId, jobId, attempt: 0, credits });
    } catch (err) {
      await repo.deleteJobs(db, [jobId]);
      throw err;
    }
  } catch (err) {
    await env.FILES.delete(sourceKey);
    throw err;
  }
  await publishIntake(env, jobId, events);
  await launch(env, db, { id: jobId, attempt: 0 });
  return (await repo.getJob(db, jobId))!;
}

/** POST /estimate: the price of a job with these options and pages, by the function that charges. */
export async function estimate(db: DB, auth: AuthContext, options: JobOptionsIn, pages: number): Promise<z.infer<typeof CostEstimateOut>> {
  checkToolOptions(options, "body");
  const plan = planOf(auth.plan);
  const credits = priceOf(options.tool, pages);
  const available = await availableCredits(db, auth.userId);
  return {
    tool: options.tool,
    pages,
    credits_per_page: TOOLS[options.tool].credits_per_page,
    credits,
    plan: plan.id,
    page_limit: plan.page_limit,
    within_page_limit: pages <= plan.page_limit,
    available_credits: available,
    sufficient_credits: available >= credits,
  };
}

/** Percent of a document job from its pages' (status, stage) counts: each page passes each page stage, then exporting. */
function documentPercent(job: repo.JobRow, rows: { status: string; stage: string | null; n: number }[]): number {
  const pageStages = stagesOf(job).filter((s) => s !== "exporting");
  const units = pageStages.length * job.pagesTotal + 1;
  let done = 0;
  for (const r of rows) {
    if (r.status === "completed" || r.status === "failed") done += pageStages.length * r.n;
    else if (r.status === "processing" && r.stage) done += (pageStages.indexOf(r.stage as never) + 1) * r.n;
  }
  return runningPercent(done, units);
}

/**
 * The public views of jobs, loading what they need (exports, page progress, batch children) in few
 * queries; `readProgress`, when given, is the jobs' page progress already read.
 */
export async function toJobOuts(db: DB, jobs: repo.JobRow[], readProgress?: repo.PageProgressRow[]): Promise<z.infer<typeof JobOut>[]> {
  const finished = jobs.filter((j) => j.status === "completed" || j.status === "partially_completed").map((j) => j.id);
  const [exports, progress, children] = await Promise.all([
    jobExports(db, finished),
    readProgress ??
      repo.pageProgress(
        db,
        jobs.filter((j) => j.kind !== "batch").map((j) => j.id),
      ),
    Promise.all(jobs.map((j) => (j.kind === "batch" ? repo.childrenOf(db, j.id) : Promise.resolve([])))),
  ]);
  return jobs.map((job, i) => {
    const kids = children[i]!;
    const isBatch = job.kind === "batch";
    const rows = progress.filter((p) => p.jobId === job.id);
    const count = (status: string) => rows.filter((r) => r.status === status).reduce((n, r) => n + r.n, 0);
    const sum = (f: (c: repo.JobRow) => number) => kids.reduce((n, c) => n + f(c), 0);
    const terminalKids = kids.filter((c) => isTerminal(c.status)).length;
    const percent =
      job.status === "completed" || job.status === "partially_completed" || job.status === "failed"
        ? 100
        : isBatch
          ? batchPercent(terminalKids, kids.length)
          : documentPercent(job, rows);
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
      progress: { percent },
      pages: isBatch
        ? { total: sum((c) => c.pagesTotal), succeeded: sum((c) => c.pagesDone), failed: sum((c) => c.pagesFailed) }
        : { total: job.pagesTotal, succeeded: count("completed"), failed: count("failed") },
      cost: isBatch
        ? {
            estimated: sum((c) => priceOf(c.tool, c.pagesTotal, c.kind)),
            reserved: sum((c) => c.creditsReserved),
            charged: sum((c) => c.creditsCharged),
          }
        : { estimated: priceOf(job.tool, job.pagesTotal, job.kind), reserved: job.creditsReserved, charged: job.creditsCharged },
      batch: isBatch
        ? {
            files_total: kids.length,
            files_completed: kids.filter((c) => c.status === "completed").length,
            files_partially_completed: kids.filter((c) => c.status === "partially_completed").length,
            files_failed: kids.filter((c) => c.status === "failed" || c.status === "cancelled").length,
            files_pending: kids.length - terminalKids,
          }
        : null,
      output: {
        exports: exports
          .filter((e) => e.jobId === job.id && e.status === "ready")
          .map((e) => ({
            export_id: e.id,
            format: e.format,
            bytes: e.bytes ?? 0,
            content_type: e.contentType ?? "application/octet-stream",
            filename: e.filename ?? `${e.id}.${e.format}`,
            download: `/api/v1/exports/${e.id}/download`,
          })),
      },
      error: job.error
        ? { code: job.error.code as never, message: job.error.message, retryable: job.error.retryable, details: job.error.details ?? {} }
        : null,
      attempt: job.attempt,
      created_at: iso(job.createdAt)!,
      updated_at: iso(job.updatedAt)!,
      started_at: iso(job.startedAt),
      finished_at: iso(job.finishedAt),
    };
  });
}

/** The public view of one job. */
export async function toJobOut(db: DB, job: repo.JobRow): Promise<z.infer<typeof JobOut>> {
  return (await toJobOuts(db, [job]))[0]!;
}

/** The jobs whose files belong to a project (the one that created it and any later one on it). */
export async function jobIdsOfProject(db: DB, project: { id: string; sourceJobId: string | null }): Promise<string[]> {
  return repo.jobIdsOfProject(db, project.id, project.sourceJobId);
}

const noJob = (jobId: string) => new ApiError("not_found", `No job ${jobId}.`);

export async function getOwnJob(db: DB, auth: AuthContext, jobId: string) {
  const job = await repo.findJob(db, auth.userId, jobId);
  if (!job) throw noJob(jobId);
  return job;
}

/** The public view of one of the user's jobs: the job and its page progress in one D1 round trip (a running job's poll needs no other). */
export async function ownJobOut(db: DB, auth: AuthContext, jobId: string): Promise<z.infer<typeof JobOut>> {
  const found = await repo.findJobWithProgress(db, auth.userId, jobId);
  if (!found) throw noJob(jobId);
  return (await toJobOuts(db, [found.job], found.progress))[0]!;
}

/**
 * The job's timeline: every transition and progress event, oldest first, and each state's
 * duration (from entering it to entering the next; the last one runs until now unless terminal).
 */
export async function timelineOf(db: DB, job: repo.JobRow) {
  const events = await repo.timeline(db, job.id);
  const transitions = events.filter((e) => e.type === "status");
  const stages = transitions.map((e, i) => {
    const next = transitions[i + 1];
    const end = next ? next.createdAt : isTerminal(e.status as JobStatus) ? e.createdAt : Date.now();
    return {
      status: e.status,
      attempt: Number((e.data ?? {}).attempt ?? 0),
      started_at: iso(e.createdAt),
      ended_at: next || isTerminal(e.status as JobStatus) ? iso(end) : null,
      duration_ms: end - e.createdAt,
    };
  });
  const first = events[0]?.createdAt ?? job.createdAt;
  return {
    job_id: job.id,
    status: job.status,
    attempt: job.attempt,
    total_ms: (job.finishedAt ?? Date.now()) - first,
    stages,
    events: events.map((e) => ({
      seq: e.seq,
      type: e.type,
      status: e.status,
      stage: e.stage,
      page: e.page,
      message: e.message,
      data: e.data ?? {},
      at: iso(e.createdAt),
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
