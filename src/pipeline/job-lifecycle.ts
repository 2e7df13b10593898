import type { DB } from "../db/client";
import { type ApiError, ERROR_CATALOGUE } from "../http/errors";
import { settleJob, priceOf } from "../modules/billing/wallet.service";
import { canTransition } from "../modules/jobs/job-state";
import * as repo from "../modules/jobs/jobs.repo";
import { JOB_STATUSES, type JobStage, type JobStatus } from "../modules/jobs/tools";
import type { JobHub, JobHubEvent } from "./job-hub.do";

/** Pushes an event to the job's hub; the D1 timeline stays authoritative if the hub is unreachable. */
export async function publish(env: Env, jobId: string, event: JobHubEvent): Promise<void> {
  const ns = env.JOB_HUB as DurableObjectNamespace<JobHub>;
  try {
    await ns.get(ns.idFromName(jobId)).publish(event);
  } catch (err) {
    console.warn(JSON.stringify({ level: "warn", job_id: jobId, msg: "job hub publish failed", error: String(err) }));
  }
}

/**
 * Moves a job to `to` if the state machine allows it from the job's current state.
 * Returns false when the job is elsewhere (cancelled meanwhile, or already finished);
 * a repeat of a transition already made (a retried step) counts as done.
 */
export async function advance(env: Env, db: DB, jobId: string, to: JobStage, message: string): Promise<boolean> {
  const job = await repo.getJob(db, jobId);
  if (!job) return false;
  if (job.status === to) return true;
  const from = JOB_STATUSES.filter((s) => canTransition(job.tool, s, to));
  const patch = { stage: to, ...(job.startedAt === null ? { startedAt: Date.now() } : {}) };
  const seq = await repo.transitionJob(db, jobId, from, to, patch, { type: "status", message });
  if (seq === null) return false;
  await publish(env, jobId, { seq, type: "status", data: { job_id: jobId, status: to, stage: to, message } });
  return true;
}

/** Records a page's progress in the timeline and on the hub. */
export async function pageEvent(env: Env, db: DB, jobId: string, page: number, stage: JobStage, failed?: { code: string; message: string }): Promise<void> {
  const message = failed ? `Page ${page + 1} failed at ${stage}: ${failed.message}` : `Page ${page + 1} ${stage} done`;
  const seq = await repo.appendEvent(db, jobId, { type: "progress", page, message, data: { stage, ...(failed ? { error: failed } : {}) } });
  await publish(env, jobId, { seq, type: "progress", data: { job_id: jobId, page, stage, message, ...(failed ? { error: failed } : {}) } });
}

/**
 * Ends a job: settles its credits exactly once (succeeded pages charged, the rest released),
 * records the terminal state and tells subscribers `done`.
 */
export async function finishJob(env: Env, db: DB, jobId: string, status: Extract<JobStatus, "completed" | "partially_completed" | "failed">, error?: ApiError, pagesFailed = 0): Promise<void> {
  const job = await repo.getJob(db, jobId);
  if (!job) return;
  const pagesDone = status === "failed" ? 0 : job.pagesTotal - pagesFailed;
  const charge = priceOf(job.tool, pagesDone);
  await settleJob(db, { userId: job.userId, jobId, attempt: job.attempt, reserved: job.creditsReserved, charge });
  const from = JOB_STATUSES.filter((s) => canTransition(job.tool, s, status));
  const stored = error ? { code: error.code, message: error.message, retryable: ERROR_CATALOGUE[error.code].retryable, details: error.details } : null;
  const message = status === "completed" ? "Job completed" : status === "partially_completed" ? `${pagesFailed} of ${job.pagesTotal} pages failed` : `Job failed: ${error?.message ?? "unknown error"}`;
  const seq = await repo.transitionJob(
    db,
    jobId,
    from,
    status,
    { stage: null, finishedAt: Date.now(), pagesDone, pagesFailed: status === "failed" ? job.pagesTotal : pagesFailed, creditsCharged: charge, creditsReserved: 0, error: stored },
    { type: "status", message, data: stored ? { error: stored } : {} },
  );
  if (seq === null) return;
  if (job.projectId) await repo.setProjectStatus(db, job.projectId, status === "completed" ? "ready" : status === "partially_completed" ? "partial" : "failed");
  await publish(env, jobId, { seq, type: "status", data: { job_id: jobId, status, message, ...(stored ? { error: stored } : {}) } });
  const doneSeq = await repo.appendEvent(db, jobId, { type: "done", message: `Finished: ${status}` });
  await publish(env, jobId, { seq: doneSeq, type: "done", data: { job_id: jobId, status } });
}
